import { UsageError, integerFlag, projectOf, requireNonEmpty, requirePositionals, type Command } from '../command.js';
import { damagedVersionsText } from '../../history/bundle/damagedContents.js';
import { countOf, formatBytes } from '../format/words.js';

// The history of a project as one bundle (docs/BUNDLE.md): to a file (written whole or not at
// all), or with `--to -` to stdout, to pipe into ssh, gzip or zstd; then the summary (or --json,
// the engine's ExportResult) goes to stderr, stdout carrying only the bundle. Damaged or missing
// contents refuse the export (exit 1, no bundle); --skip-damaged writes the rest and names what it
// left out.

export const exportCommand: Command = {
  name: 'export',
  usage: 'export FOLDER --to FILE|- [--since SNAPSHOT] [--skip-damaged]',
  summary:
    "Write the project's history (or the part after --since) as one self-checking bundle. Damaged or missing contents refuse it; --skip-damaged leaves them out and lists them.",
  flags: { to: { type: 'string' }, since: { type: 'string' }, 'skip-damaged': { type: 'boolean' } },
  async run(ctx) {
    const [folder] = requirePositionals(ctx, ['FOLDER']);
    const to = ctx.flags.to;
    if (typeof to !== 'string') throw new UsageError('export needs --to FILE (or --to - for stdout)');
    requireNonEmpty(to, '--to');
    const since = integerFlag(ctx, 'since');
    const { engine, projectId } = projectOf(ctx, folder!);
    const toStdout = to === '-';
    const result = await engine.exportHistory(projectId, toStdout ? { stream: ctx.out } : { file: to }, {
      since,
      skipDamaged: ctx.flags['skip-damaged'] === true,
      signal: ctx.signal,
    });
    if (toStdout) await new Promise<void>((resolve, reject) => ctx.out.write('', (error) => (error ? reject(error) : resolve())));
    const report = toStdout ? ctx.err : ctx.out;
    if (ctx.json) return void report.write(`${JSON.stringify(result)}\n`);
    const range = result.snapshots === 0 ? 'no new snapshots' : `snapshots ${result.first}-${result.last}`;
    report.write(
      `Exported ${range}${result.since !== null ? ` (after snapshot ${result.since})` : ''}: ${countOf(result.blobs, 'blob')} (${formatBytes(result.bytes)}), ` +
        `bundle ${formatBytes(result.size)}${result.to ? ` in ${result.to}` : ''}.\n`,
    );
    if (result.leftOut.length > 0) {
      report.write(
        `Left out ${countOf(result.leftOut.length, 'damaged or missing blob')}: ${damagedVersionsText(result.leftOut)}; an import keeps those versions without their bytes.\n`,
      );
    }
  },
};
