import { HindsightError } from '../../shared/errors.js';
import { displayPath } from '../../shared/fileNameBytes.js';
import type { GitSource, VersionInfo } from '../../shared/contract.js';
import type { HistoryEngine } from '../history/historyEngine.js';
import { UsageError, type CommandContext } from './command.js';

// What --version takes, in one place for show, restore and pin: a version id (the RESTORE WITH
// column of `log FOLDER PATH`, which never changes), `vN` (the Nth version as `log` numbers them
// now, 1 the oldest: a prune renumbers them), or HEAD / INDEX (git's committed or staged version,
// where the command takes them). A bare number is always an id, never a place in the list: the
// two would name different versions, so an id the file does not have is refused rather than read
// as a number.

export type VersionArg = { id: number } | { number: number } | GitSource;

export const VERSION_FORMS = 'a version id (the RESTORE WITH column of `hindsight log FOLDER PATH`), vN (the Nth version as log numbers them, v1 the oldest)';

/** --version as typed; `git` says whether HEAD and INDEX are taken. */
export function versionArg(ctx: CommandContext, options: { git: boolean }): VersionArg | undefined {
  const raw = ctx.flags.version;
  if (raw === undefined) return undefined;
  const forms = `--version takes ${VERSION_FORMS}${options.git ? ', HEAD or INDEX' : ''}`;
  if (typeof raw !== 'string') throw new UsageError(forms);
  if (options.git && (raw === 'HEAD' || raw === 'INDEX')) return raw;
  const match = /^(v?)(\d+)$/i.exec(raw);
  const value = match ? Number(match[2]) : NaN;
  if (!match || !Number.isSafeInteger(value)) throw new UsageError(`${forms}; not ${JSON.stringify(raw)}`);
  if (match[1] === '') return { id: value };
  if (value === 0) throw new UsageError(`${forms}; versions are numbered from v1`);
  return { number: value };
}

/**
 * The version id an argument names among a file's versions (oldest first, as `log` lists them),
 * or git's source as given. A number past the list, or an id of another file, is VERSION_NOT_FOUND
 * naming the forms that would have worked.
 */
export function resolveVersionArg(engine: HistoryEngine, projectId: string, path: string, arg: VersionArg): number | GitSource {
  if (typeof arg === 'string') return arg;
  return versionIdIn(engine.versions(projectId, path), path, arg);
}

export function versionIdIn(oldestFirst: readonly Pick<VersionInfo, 'versionId'>[], path: string, arg: { id: number } | { number: number }): number {
  const count = oldestFirst.length;
  const range = `${displayPath(path)} has ${count === 0 ? 'no versions' : count === 1 ? 'only v1' : `v1 to v${count}`}`;
  if ('number' in arg) {
    const version = oldestFirst[arg.number - 1];
    if (version) return version.versionId;
    throw new HindsightError('VERSION_NOT_FOUND', `There is no v${arg.number}: ${range}; --version takes ${VERSION_FORMS}.`, {
      path,
      versionNumber: arg.number,
    });
  }
  if (oldestFirst.some((v) => v.versionId === arg.id)) return arg.id;
  const place = arg.id >= 1 && arg.id <= count ? ` (for the ${ordinal(arg.id)} version as log numbers them, type v${arg.id})` : '';
  throw new HindsightError(
    'VERSION_NOT_FOUND',
    `${arg.id} is not the id of a version of ${displayPath(path)}${place}: --version takes ${VERSION_FORMS}; ${range}.`,
    { path, versionId: arg.id },
  );
}

function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}
