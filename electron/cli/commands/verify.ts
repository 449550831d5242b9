import { projectOf, requirePositionals, writeJson, type Command } from '../command.js';

export const verifyCommand: Command = {
  name: 'verify',
  usage: 'verify FOLDER',
  summary: 'Re-hash every stored blob; exit 1 when any is missing or corrupt.',
  async run(ctx) {
    const [folder] = requirePositionals(ctx, ['FOLDER']);
    const { engine, projectId } = projectOf(ctx, folder!);
    const result = await engine.verify(projectId, { signal: ctx.signal });
    if (ctx.json) writeJson(ctx, result);
    else {
      ctx.out.write(`${result.blobs} blobs: ${result.ok ? 'all intact' : `${result.missing.length} missing, ${result.corrupt.length} corrupt`}\n`);
      for (const p of [...result.missing.map((m) => ['missing', m] as const), ...result.corrupt.map((c) => ['corrupt', c] as const)]) {
        ctx.out.write(`${p[0]} ${p[1].hash}: ${p[1].versions.map((v) => `${v.path} (version ${v.versionId})`).join(', ')}\n`);
      }
    }
    if (!result.ok) ctx.err.write('verify: the history store has missing or corrupt blobs.\n');
    return result.ok ? 0 : 1;
  },
};
