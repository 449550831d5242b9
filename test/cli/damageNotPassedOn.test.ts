import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectIdOf } from '../../electron/history/project/projectId.js';
import { blobsDirOf, projectStoreDir } from '../../electron/history/store/storeLayout.js';
import { logBytes } from '../helpers/logBytes.js';
import { CLI, cliJson, finished, runCli } from '../helpers/runCli.js';
import { blobFile, chunksOf } from '../helpers/storedBlob.js';
import { tempDir } from '../helpers/tempDirs.js';
import { sha256, writeTree } from '../helpers/writeTree.js';

// Damage is never passed on as good: `show` of a version with a damaged part writes nothing (not
// the chunks before the damaged one), through a pipe or into a file.

const MiB = 1024 * 1024;
const LOG = logBytes(11, 6 * MiB);

function flipByte(file: string, at: number): void {
  const bytes = readFileSync(file);
  bytes[at] = bytes[at]! ^ 0x01;
  writeFileSync(file, bytes);
}

async function recorded(spec: Parameters<typeof writeTree>[1]) {
  const root = tempDir();
  const dataDir = tempDir('hindsight-data-');
  writeTree(root, spec);
  await cliJson(['open', root, '--data-dir', dataDir]);
  return { root, dataDir, data: ['--data-dir', dataDir], blobsDir: blobsDirOf(projectStoreDir(dataDir, projectIdOf(root))) };
}

describe('damage is never passed on', () => {
  it('show of a chunked version whose last chunk is damaged writes no byte, to a pipe or a file, and exits 1 naming it', async () => {
    const { root, data, blobsDir } = await recorded({ 'app.log': LOG });
    const chunks = chunksOf(blobsDir, sha256(LOG));
    expect(chunks.length).toBeGreaterThanOrEqual(3);
    const last = blobFile(blobsDir, chunks.at(-1)!);
    flipByte(last, statSync(last).size - 8);

    const piped = await runCli(['show', root, 'app.log', ...data]);
    expect(piped.code).toBe(1);
    expect(piped.stdout.length).toBe(0);
    expect(piped.stderr).toContain('The stored contents of app.log (version');
    expect(piped.stderr).toContain('are damaged');

    // As `show > file` leaves it: the file the shell made stays empty.
    const file = join(tempDir(), 'shown.log');
    const fd = openSync(file, 'w');
    try {
      const child = spawn(process.execPath, [CLI, 'show', root, 'app.log', ...data], { stdio: ['ignore', fd, 'pipe'] });
      expect((await finished(child)).code).toBe(1);
    } finally {
      closeSync(fd);
    }
    expect(statSync(file).size).toBe(0);
  });
});
