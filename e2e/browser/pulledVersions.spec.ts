import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { writeFiles } from './fixtures/folders.js';
import { shoot as shootScreens } from './fixtures/shoot.js';
import { CLI } from './fixtures/host.js';
import { expect, openProject, selectFile, test, versions } from './fixtures/viewer.js';

// A file's version list after a pull: this machine's versions and another machine's, the other
// machine's marked with it, and Current on this machine's newest version (the folder's own line).
// The other machine's snapshot is written into history.db as a pull writes it (schema 10: its
// line, forked from the first copy), since Swift does not run beside the browser tests. With HINDSIGHT_SCREENSHOTS=1 it also writes its screens.

const MACHINE_B = 'b0b0b0b0-1111-4222-8333-444455556666';

async function shoot(page: Page, name: string): Promise<void> {
  if (process.env.HINDSIGHT_SCREENSHOTS === '1') await shootScreens(page, name);
}

test("the version list shows another machine's version with its machine, and Current on this machine's", async ({ viewer, folder, dataDir }) => {
  const dir = folder('hindsight-e2e-pulled-');
  writeFiles(dir, { 'notes.md': '# Notes\n' });
  const cli = (...args: string[]) => execFileSync(process.execPath, [CLI, ...args, '--data-dir', dataDir], { encoding: 'utf8' });
  cli('open', dir);
  writeFiles(dir, { 'notes.md': '# Notes\nWritten on this machine.\n' });
  cli('open', dir);

  const [projectId] = readdirSync(join(dataDir, 'projects'));
  const storeDir = join(dataDir, 'projects', projectId!);
  // B wrote the same bytes as this machine's newest version: identical to the disk, yet not Current.
  const bytes = Buffer.from('# Notes\nWritten on this machine.\n');
  const hash = createHash('sha256').update(bytes).digest('hex');
  const db = new Database(join(storeDir, 'history.db'));
  const baseline = (db.prepare("SELECT id FROM snapshots WHERE kind = 'baseline'").get() as { id: number }).id;
  const line = Number(db.prepare('INSERT INTO lines (machine, fork_line, fork_origin) VALUES (?, 0, ?)').run(MACHINE_B, baseline).lastInsertRowid);
  const snapshot = Number(
    db.prepare("INSERT INTO snapshots (kind, at, label, origin, machine, machine_snapshot) VALUES ('change', ?, NULL, 'edit', ?, 2)").run(Date.now(), MACHINE_B)
      .lastInsertRowid,
  );
  db.prepare('INSERT OR IGNORE INTO blobs (hash, size) VALUES (?, ?)').run(hash, bytes.length);
  db.prepare("INSERT INTO versions (snapshot_id, path, hash, mode, size, type, line) VALUES (?, 'notes.md', ?, 420, ?, 'file', ?)").run(
    snapshot,
    hash,
    bytes.length,
    line,
  );
  db.close();

  await openProject(viewer, dir);
  await selectFile(viewer, 'notes.md');
  const rows = versions(viewer);
  await expect(rows).toHaveCount(3);
  // Newest first: B's version (the newest id), then this machine's two.
  await expect(rows.nth(0)).toContainText('from machine b0b0b0b0');
  await expect(rows.nth(0).getByText('Current')).toHaveCount(0);
  await expect(rows.nth(1).getByText('Current')).toBeVisible();
  await expect(rows.nth(1)).not.toContainText('from machine');
  await expect(rows.nth(2)).not.toContainText('from machine');
  await shoot(viewer, 'pulled-versions');
});
