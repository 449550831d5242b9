import { build } from 'esbuild';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Bundles configChild.ts (engine code and zod included) into one plain .mjs a child node can run.
export async function buildConfigChild(): Promise<string> {
  const outfile = join(mkdtempSync(join(tmpdir(), 'hindsight-config-child-')), 'configChild.mjs');
  await build({
    entryPoints: [fileURLToPath(new URL('./configChild.ts', import.meta.url))],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'esm',
    logLevel: 'warning',
  });
  return outfile;
}
