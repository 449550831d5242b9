import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';

// Temp folders that are removed after each test, whatever happened in it; or, for a fixture a
// beforeAll makes once for every test of a file, after the file's last test.

const made: string[] = [];
const madeForFile: string[] = [];

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

// A shared fixture can be a folder of 100,000 files or more: removing it may take minutes on a busy disk.
afterAll(() => {
  for (const dir of madeForFile.splice(0)) rmSync(dir, { recursive: true, force: true });
}, 300_000);

export function tempDir(prefix = 'hindsight-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** A temp folder that lives until the file's last test has run (a fixture shared by its tests). */
export function fileTempDir(prefix = 'hindsight-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  madeForFile.push(dir);
  return dir;
}
