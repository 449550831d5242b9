import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { StoreStats } from '../../shared/contract/values.js';
import { formatBytes, formatCount } from '../../renderer/format/bytes.js';
import { writeFiles } from './fixtures/folders.js';
import { shoot as shootScreens } from './fixtures/shoot.js';
import { CLI } from './fixtures/host.js';
import { expect, openProject, selectFile, test, versions } from './fixtures/viewer.js';

// The Store tab against a budget, "Clean up now" with its preview, pins on a snapshot and a
// version, where the timeline starts thinning, and what compression saves (bytes on disk against
// the files' bytes, the blobs by form, the versions the budget holds), on a history of real edits whose times are
// moved back in history.db (the only way a test gets days of history). With
// HINDSIGHT_SCREENSHOTS=1 it also writes its screens, light and dark, in two window sizes.

const HOUR = 3_600_000;
/** The screens of this flow, only when asked for (HINDSIGHT_SCREENSHOTS=1). */
async function shoot(page: Page, name: string): Promise<void> {
  if (process.env.HINDSIGHT_SCREENSHOTS === '1') await shootScreens(page, name);
}

test('the Store tab shows the budget and the policy, cleans up after a preview, and snapshots and versions can be pinned', async ({
  viewer,
  folder,
  dataDir,
}) => {
  test.setTimeout(240_000);
  const dir = folder('hindsight-e2e-retention-');
  writeFiles(dir, { 'notes.md': '# Notes\n', 'src/app.ts': 'export const a = 0;\n', 'assets/clip.bin': Buffer.alloc(30_000, 7) });
  const cli = (...args: string[]) => execFileSync(process.execPath, [CLI, ...args, '--data-dir', dataDir], { encoding: 'utf8' });
  cli('open', dir);
  for (let i = 1; i <= 12; i++) {
    writeFiles(dir, { 'notes.md': `# Notes\n${'A line of notes.\n'.repeat(i * 200)}`, ...(i % 3 === 0 ? { 'src/app.ts': `export const a = ${i};\n` } : {}) });
    cli('open', dir);
  }
  // Twelve edits, one every 9 hours, up to now.
  const [projectId] = readdirSync(join(dataDir, 'projects'));
  const db = new Database(join(dataDir, 'projects', projectId!, 'history.db'));
  const ids = (db.prepare('SELECT id FROM snapshots ORDER BY id').all() as { id: number }[]).map((r) => r.id);
  ids.forEach((id, i) => db.prepare('UPDATE snapshots SET at = ? WHERE id = ?').run(Date.now() - (ids.length - 1 - i) * 9 * HOUR, id));
  db.close();
  cli('config', 'set', 'retention.hourly', '6');
  cli('config', 'set', 'retention.daily', '5');
  cli('config', 'set', 'historyBudget', '100KiB');

  await openProject(viewer, dir);
  await viewer.getByRole('tab', { name: 'Timeline' }).click();
  const snapshots = viewer.getByRole('list', { name: 'Snapshots' });
  await expect(snapshots.getByRole('separator', { name: 'One per hour from here' })).toBeVisible();
  await expect(snapshots.getByRole('separator', { name: 'One per day from here' })).toBeVisible();
  const before = await snapshots.getByRole('button').count();
  await snapshots.getByRole('button').nth(3).click();
  const pin = viewer.getByRole('button', { name: 'Pin snapshot' });
  await expect(pin).toHaveAttribute('aria-pressed', 'false');
  await pin.click();
  await expect(pin).toHaveAttribute('aria-pressed', 'true');
  await shoot(viewer, 'retention-timeline');

  await viewer.getByRole('tab', { name: 'Store' }).click();
  const meter = viewer.getByRole('meter', { name: 'History budget used' });
  await expect(meter).toBeVisible();
  await expect(meter).toHaveAttribute('aria-valuemax', String(100 * 1024));
  await expect(viewer.getByText('Every version from the last 24 hours of work.')).toBeVisible();
  await expect(viewer.getByText('Then one per hour, for 6 hours that had changes.')).toBeVisible();
  const holders = viewer.getByRole('region', { name: 'What holds the space' });
  await expect(holders.getByRole('row').nth(1)).toContainText('notes.md');
  await shoot(viewer, 'retention-store');

  await viewer.getByRole('button', { name: 'Clean up now…' }).click();
  const dialog = viewer.getByRole('dialog', { name: 'Clean up the history' });
  const list = dialog.getByRole('list', { name: 'Snapshots kept and removed' });
  await expect(list.getByRole('listitem')).toHaveCount(before);
  await expect(list.getByText('Pinned')).toHaveCount(1);
  const removed = await list.getByText('Remove', { exact: true }).count();
  expect(removed).toBeGreaterThan(0);
  await shoot(viewer, 'retention-preview');
  await dialog.getByRole('button', { name: `Remove ${removed} snapshots` }).click();
  await expect(viewer.getByRole('status').filter({ hasText: `Removed ${removed} snapshots` })).toBeVisible();
  await expect(dialog).toHaveCount(0);

  await viewer.getByRole('tab', { name: 'Timeline' }).click();
  await expect(snapshots.getByRole('button')).toHaveCount(before - removed);
  // Pin a version of a file from the Files tab; the CLI sees both pins.
  await viewer.getByRole('tab', { name: 'Files' }).click();
  await selectFile(viewer, 'notes.md');
  await versions(viewer).nth(1).getByRole('button').click();
  await viewer.getByRole('button', { name: 'Pin version' }).click();
  await expect(viewer.getByRole('button', { name: 'Pin version' })).toHaveAttribute('aria-pressed', 'true');
  const plan = JSON.parse(cli('prune', dir, '--dry-run', '--json')) as { decisions: { snapshotId: number; why: string }[] };
  const pinned = plan.decisions.find((d) => d.why === 'pinned')!;
  // Pinning it again changes nothing and answers every pin: the snapshot and the version.
  const pins = JSON.parse(cli('pin', dir, '--snapshot', String(pinned.snapshotId), '--json')) as { snapshots: number[]; versions: number[] };
  expect([pins.snapshots.length, pins.versions.length]).toEqual([1, 1]);
  expect(JSON.parse(cli('verify', dir, '--json'))).toMatchObject({ ok: true });
});

test('the Store tab sets where thinned versions go: deleted, or moved to a remote, and the preview says which', async ({ viewer, folder, dataDir }) => {
  test.setTimeout(240_000);
  const dir = folder('hindsight-e2e-archive-');
  writeFiles(dir, { 'notes.md': '# Notes\n' });
  const cli = (...args: string[]) => execFileSync(process.execPath, [CLI, ...args, '--data-dir', dataDir], { encoding: 'utf8' });
  cli('open', dir);
  for (let i = 1; i <= 6; i++) {
    writeFiles(dir, { 'notes.md': `# Notes\n${'A line of notes.\n'.repeat(i * 50)}` });
    cli('open', dir);
  }
  const [projectId] = readdirSync(join(dataDir, 'projects'));
  const db = new Database(join(dataDir, 'projects', projectId!, 'history.db'));
  const ids = (db.prepare('SELECT id FROM snapshots ORDER BY id').all() as { id: number }[]).map((r) => r.id);
  ids.forEach((id, i) => db.prepare('UPDATE snapshots SET at = ? WHERE id = ?').run(Date.now() - (ids.length - 1 - i) * 30 * HOUR, id));
  db.close();
  cli('config', 'set', 'retention.keepAllHours', '0');
  cli('config', 'set', 'retention.hourly', '0');
  cli('config', 'set', 'retention.daily', '0');
  cli('config', 'set', 'retention.weekly', '0');
  cli('config', 'set', 'retention.uncommittedDays', '0');
  // Choosing needs no server: nothing is pushed until a prune runs.
  cli('remote', 'add', 'origin', 's3://archive-bucket/hs', '--endpoint', 'http://127.0.0.1:9', '--path-style');

  await openProject(viewer, dir);
  await viewer.getByRole('tab', { name: 'Store' }).click();
  const choice = viewer.getByRole('combobox', { name: 'Versions the policy thins' });
  await expect(choice).toHaveValue('');
  await choice.selectOption('origin');
  await expect.poll(() => (JSON.parse(cli('config', 'get', 'retention', '--json')) as { archiveToRemote: string | null }).archiveToRemote).toBe('origin');
  await shoot(viewer, 'retention-archive');

  await viewer.getByRole('button', { name: 'Clean up now…' }).click();
  const dialog = viewer.getByRole('dialog', { name: 'Clean up the history' });
  await expect(dialog.getByRole('button', { name: /^Move \d+ snapshots to origin$/ })).toBeVisible();
  await shoot(viewer, 'retention-archive-preview');
  const moved = await dialog.getByRole('list', { name: 'Snapshots kept and removed' }).getByText('Move', { exact: true }).count();
  expect(moved).toBeGreaterThan(0);
  await expect(dialog.getByText(/thinned snapshots stay listed/)).toBeVisible();
  await expect(dialog.getByRole('button', { name: `Move ${moved} snapshots to origin` })).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await choice.selectOption('');
  await expect.poll(() => (JSON.parse(cli('config', 'get', 'retention', '--json')) as { archiveToRemote: string | null }).archiveToRemote).toBeNull();
});

test('the Store tab shows the bytes on disk against the bytes as the files are, the saving, the blobs by form and what the budget holds', async ({
  viewer,
  folder,
  dataDir,
}) => {
  const dir = folder('hindsight-e2e-density-');
  const source = (seed: number) =>
    Array.from({ length: 300 }, (_, i) => `export function step${seed}_${i}(value: number): number { return value * ${i} + ${seed}; }\n`).join('');
  writeFiles(dir, { 'src/a.ts': source(1), 'src/b.ts': source(2), 'src/c.ts': source(3), 'notes.md': '# Notes\n', 'assets/noise.bin': noise(40_000) });
  const cli = (...args: string[]) => execFileSync(process.execPath, [CLI, ...args, '--data-dir', dataDir], { encoding: 'utf8' });
  cli('open', dir);
  const stats = JSON.parse(cli('stats', dir, '--json')) as StoreStats;
  expect(stats.density).toMatchObject({ blobsCompressed: 3, blobsRaw: 2 });

  await openProject(viewer, dir);
  await viewer.getByRole('tab', { name: 'Store' }).click();
  const stat = (label: string) => viewer.locator('.stat').filter({ has: viewer.getByText(label, { exact: true }) });
  await expect(stat('Stored')).toContainText(formatBytes(stats.density.storedBytes));
  // Everything the history takes, as du counts it, with its parts (the blob files do not change while the host has it open).
  await expect(stat('On disk')).toContainText(`blobs ${formatBytes(stats.disk.blobBytes)} in ${formatCount(stats.disk.blobFiles)} files`);
  await expect(stat('On disk')).toContainText(/index .* \(search .* of it\) · backup .* · other /);
  await expect(stat('As the files are')).toContainText(formatBytes(stats.density.rawBytes));
  await expect(stat('Saved by compression')).toContainText(formatBytes(stats.density.savedBytes));
  await expect(stat('Saved by compression')).toContainText(`${Math.round((stats.density.savedBytes / stats.density.rawBytes) * 100)}% of the files' bytes`);
  await expect(stat('Compressed blobs')).toContainText('3');
  await expect(stat('Compressed blobs')).toContainText('2 raw');
  await expect(stat('Versions the budget holds')).toContainText(`≈ ${formatCount(stats.density.versionsInBudget!)}`);
  await expect(stat('Versions the budget holds')).toContainText(
    `${formatCount(stats.density.versionsInBudgetUncompressed!)} uncompressed, in ${formatBytes(stats.density.budget!)}`,
  );
  // What holds the space is counted as the budget counts it: a compressed file by its bytes on disk.
  const holders = viewer.getByRole('region', { name: 'What holds the space' });
  await expect(holders.getByRole('row').nth(1)).toContainText('assets/noise.bin');
  await shoot(viewer, 'store-density');
});

/** Bytes that do not compress (a fixed seed: the same on every run). */
function noise(size: number): Buffer {
  const bytes = Buffer.alloc(size);
  let x = 2463534242;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  return bytes;
}
