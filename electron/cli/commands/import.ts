import { UsageError, requireNonEmpty, requirePositionals, writeJson, type Command } from '../command.js';
import { countOf, formatBytes } from '../format/words.js';
import { visibleText } from '../../../shared/fileNameBytes.js';
import { describeCollidingNames } from '../format/collidingNames.js';
import { describeUnwritable } from '../format/unwritableNames.js';
import type { IncomingNamesSink } from '../../history/bundle/bundleTransfer.js';

// A bundle read into a history: from a file or, with `-`, stdin. The history goes to the folder
// it was recorded at, or --as another one (a project moved or copied to another path).

export const importCommand: Command = {
  name: 'import',
  usage: 'import FILE|- [--as FOLDER]',
  summary: 'Read a bundle into the history of its folder (or --as another folder); every blob is checked, the index is written last.',
  flags: { as: { type: 'string' } },
  async run(ctx) {
    const [file] = requirePositionals(ctx, ['FILE']);
    const as = ctx.flags.as;
    if (as !== undefined && typeof as !== 'string') throw new UsageError('--as takes a folder');
    requireNonEmpty(as, '--as');
    const engine = ctx.engine();
    // The names are told as soon as they are known, before anything is written: a user who stops the import has seen them.
    const onIncomingNames: IncomingNamesSink = (names, root) => {
      ctx.err.write(describeCollidingNames(names.collidingNames, root));
      ctx.err.write(describeUnwritable(names.unwritableNames, 'imported'));
    };
    const from = file === '-' ? { stream: process.stdin } : { file: file! };
    const result = await engine.importHistory(from, { as, signal: ctx.signal, onWait: ctx.onWait, onIncomingNames });
    if (ctx.json) return writeJson(ctx, result);
    const already = result.snapshots - result.added;
    ctx.out.write(
      `Imported ${countOf(result.added, 'snapshot')} into the history of ${visibleText(result.root)}` +
        `${already > 0 ? ` (${countOf(already, 'snapshot')} already there)` : ''}: ` +
        `${countOf(result.blobsWritten, 'blob')} written, ${result.blobsPresent} already stored (${formatBytes(result.bytes)}).\n`,
    );
  },
};
