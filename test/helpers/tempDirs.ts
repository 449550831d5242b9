import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, onTestFinished } from 'vitest';

// Temp folders that are removed after each test, whatever happened in it; or, for a fixture a
// beforeAll makes once for every test of a file, after the file's last test.
//
// A folder made inside a test is removed by an onTestFinished hook, not by afterEach: vitest runs
// afterEach hooks before a test's onTestFinished hooks, and tests stop what they started (a
// recorder, a watch process, an engine) in onTestFinished. Removed in afterEach, a data folder was
// taken away while its recorder still wrote into it (ENOTEMPTY, or a recorder failing on a folder
// gone). onTestFinished hooks run last registered first, so a folder made before a teardown was
// registered is removed after that teardown ran.

const made: string[] = [];
const madeForFile: string[] = [];

afterEach(() => {
  for (const dir of made.splice(0)) remove(dir);
});

// A shared fixture can be a folder of 100,000 files or more: removing it may take minutes on a busy disk.
afterAll(() => {
  for (const dir of madeForFile.splice(0)) remove(dir);
}, 300_000);

export function tempDir(prefix = 'hindsight-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  try {
    onTestFinished(() => remove(dir));
  } catch {
    // Not inside a test (a beforeEach of a suite without one running, a module's top level).
    made.push(dir);
  }
  return dir;
}

/** A temp folder that lives until the file's last test has run (a fixture shared by its tests). */
export function fileTempDir(prefix = 'hindsight-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  madeForFile.push(dir);
  return dir;
}

function remove(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
