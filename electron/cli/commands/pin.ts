import type { Pins } from '../../../shared/contract/values.js';
import type { PinTarget } from '../../history/retention/setPin.js';
import { UsageError, integerFlag, projectOf, projectPathArg, requireNonEmpty, writeJson, type Command, type CommandContext } from '../command.js';
import { displayPath } from '../../../shared/fileNameBytes.js';
import { versionArg, versionIdIn } from '../versionArg.js';

// `pin` and `unpin`: a snapshot (--snapshot ID) or one version of a file (PATH --version ID|vN).
// A pinned snapshot or version is never removed by a prune. --json prints every pin of the
// project afterwards (the engine's answer, as the viewer gets it).

const usage = (name: string) => `${name} FOLDER (--snapshot ID | PATH --version ID|vN)`;
const flags = { snapshot: { type: 'string' }, version: { type: 'string' } } as const;

export const pinCommand: Command = {
  name: 'pin',
  usage: usage('pin'),
  summary: 'Keep a snapshot or a version of a file through every prune.',
  flags,
  run: (ctx) => pinOrUnpin(ctx, true),
};

export const unpinCommand: Command = {
  name: 'unpin',
  usage: usage('unpin'),
  summary: 'Let a prune remove a pinned snapshot or version again, as the policy says.',
  flags,
  run: (ctx) => pinOrUnpin(ctx, false),
};

async function pinOrUnpin(ctx: CommandContext, pinned: boolean): Promise<void> {
  const [folder, path, extra] = ctx.positionals;
  if (folder === undefined) throw new UsageError('missing FOLDER');
  requireNonEmpty(folder, 'FOLDER');
  if (extra !== undefined) throw new UsageError(`unexpected argument ${extra}`);
  const snapshotId = integerFlag(ctx, 'snapshot');
  const version = versionArg(ctx, { git: false });
  if (snapshotId !== undefined && (version !== undefined || path !== undefined)) throw new UsageError('--snapshot takes no PATH and no --version');
  if (snapshotId === undefined && (path === undefined || version === undefined)) throw new UsageError('needs --snapshot ID, or PATH --version ID|vN');
  const { engine, projectId } = projectOf(ctx, folder);
  let target: PinTarget = { snapshotId: snapshotId! };
  let what = `Snapshot ${snapshotId}`;
  if (snapshotId === undefined) {
    requireNonEmpty(path, 'PATH');
    const projectPath = projectPathArg(folder, path!);
    const versions = engine.versions(projectId, projectPath);
    const versionId = versionIdIn(versions, projectPath, version as { id: number } | { number: number });
    target = { versionId, path: projectPath };
    // Named as `log` lists it: its number now, and the id --version takes.
    what = `Version ${versions.findIndex((v) => v.versionId === versionId) + 1} of ${displayPath(projectPath)} (--version ${versionId})`;
  }
  const pins: Pins = engine.setPin(projectId, target, pinned);
  if (ctx.json) return writeJson(ctx, pins);
  ctx.out.write(`${what} is ${pinned ? 'pinned: no prune removes it' : 'no longer pinned'}.\n`);
}
