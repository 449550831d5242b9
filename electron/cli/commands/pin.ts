import type { Pins } from '../../../shared/contract/values.js';
import type { PinTarget } from '../../history/retention/setPin.js';
import { UsageError, integerFlag, projectOf, projectPathArg, requireNonEmpty, writeJson, type Command, type CommandContext } from '../command.js';

// `pin` and `unpin`: a snapshot (--snapshot ID) or one version of a file (PATH --version ID).
// A pinned snapshot or version is never removed by a prune. --json prints every pin of the
// project afterwards (the engine's answer, as the viewer gets it).

const usage = (name: string) => `${name} FOLDER (--snapshot ID | PATH --version ID)`;
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
  const versionId = integerFlag(ctx, 'version');
  let target: PinTarget;
  if (snapshotId !== undefined) {
    if (versionId !== undefined || path !== undefined) throw new UsageError('--snapshot takes no PATH and no --version');
    target = { snapshotId };
  } else {
    if (path === undefined || versionId === undefined) throw new UsageError('needs --snapshot ID, or PATH --version ID');
    requireNonEmpty(path, 'PATH');
    target = { versionId, path: projectPathArg(folder, path) };
  }
  const { engine, projectId } = projectOf(ctx, folder);
  const pins: Pins = engine.setPin(projectId, target, pinned);
  if (ctx.json) return writeJson(ctx, pins);
  const what = 'snapshotId' in target ? `Snapshot ${target.snapshotId}` : `Version ${target.versionId} of ${target.path}`;
  ctx.out.write(`${what} is ${pinned ? 'pinned: no prune removes it' : 'no longer pinned'}.\n`);
}
