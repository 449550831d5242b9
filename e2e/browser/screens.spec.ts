import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { writeBigTree, writeFiles } from './fixtures/folders.js';
import { shoot } from './fixtures/shoot.js';
import { expect, openFolder, openProject, selectFile, test, versions } from './fixtures/viewer.js';

// Every screen in light and dark, written to test-results/screens/ for a person to look at.
// Not an assertion of pixels: run it with HINDSIGHT_SCREENSHOTS=1 after changing the look.

test.skip(process.env.HINDSIGHT_SCREENSHOTS !== '1', 'screenshots: set HINDSIGHT_SCREENSHOTS=1 to write them');

const APP_TS = `import { useState } from 'react';

// A counter, to show highlighting.
export function Counter({ start = 0 }: { start?: number }) {
  const [count, setCount] = useState(start);
  return <button onClick={() => setCount(count + 1)}>Clicked {count} times</button>;
}
`;

function png(width: number, height: number): Buffer {
  // A small gradient PNG, written by hand so the fixture needs no image library.
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 3 + 1)] = 0;
    for (let x = 0; x < width; x++) {
      const o = y * (width * 3 + 1) + 1 + x * 3;
      raw[o] = (x * 255) / width;
      raw[o + 1] = (y * 255) / height;
      raw[o + 2] = 200;
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

test('every screen, light and dark', async ({ viewer, folder, dataDir }) => {
  test.setTimeout(240_000);
  await expect(viewer.getByText('No projects yet')).toBeVisible();
  await shoot(viewer, '01-start-empty');

  await viewer.getByRole('button', { name: 'Open folder...' }).click();
  await viewer.getByLabel('Folder path').fill('/home/me/projects/site');
  await shoot(viewer, '02-open-dialog');
  await viewer.keyboard.press('Escape');

  const big = folder('hindsight-e2e-footage-');
  writeBigTree(big, 1_500, 48 * 1024);
  const big2 = folder('hindsight-e2e-photos-');
  writeBigTree(big2, 1_500, 48 * 1024);
  await openFolder(viewer, big);
  await openFolder(viewer, big2);
  await expect(viewer.getByRole('progressbar')).toHaveCount(2);
  await shoot(viewer, '03-first-copy');
  await expect(viewer.getByRole('progressbar')).toHaveCount(0, { timeout: 120_000 });
  await expect(viewer.getByRole('status').filter({ hasText: 'Copied' })).toHaveCount(1);
  await shoot(viewer, '03-first-copy-done');

  const dir = folder('hindsight-e2e-site-');
  writeFiles(dir, {
    'src/Counter.tsx': APP_TS,
    'src/styles.css': 'body {\n  margin: 0;\n  color: #222;\n}\n',
    'README.md': '# Site\n\nNotes about the site.\n',
    'notes.txt': 'first line\nsecond line\n',
    'assets/logo.png': png(160, 96),
    'assets/archive.zip': Buffer.from([0x50, 0x4b, 3, 4, 0, 0, 0, 1, 2, 3]),
    'old/draft.md': 'an old draft\n',
  });
  const empty = folder('hindsight-e2e-empty-');
  await openFolder(viewer, empty);
  await expect(viewer.getByText('This folder is empty')).toBeVisible();
  await shoot(viewer, '04-empty-folder');

  await openProject(viewer, dir);
  writeFileSync(
    join(dir, 'src/Counter.tsx'),
    APP_TS.replace('count + 1', 'count + step').replace('start = 0 }', 'start = 0, step = 1 }').replace('start?: number }', 'start?: number; step?: number }'),
  );
  rmSync(join(dir, 'old/draft.md'));
  await selectFile(viewer, 'src/Counter.tsx');
  await expect(versions(viewer)).toHaveCount(2, { timeout: 30_000 });
  await shoot(viewer, '05-project-text');

  await versions(viewer).last().getByRole('button').click();
  await viewer.getByLabel('Compare with').selectOption('disk');
  await expect(viewer.getByTestId('diff-view').locator('.cm-line', { hasText: 'step' }).first()).toBeVisible();
  await viewer.getByRole('button', { name: 'Next change' }).click();
  await shoot(viewer, '06-diff-side');
  await viewer.getByRole('button', { name: 'Inline' }).click();
  await shoot(viewer, '07-diff-inline');
  await viewer.getByLabel('Compare with').selectOption('none');
  await viewer.getByRole('checkbox', { name: 'Compare version 2' }).check();
  await viewer.getByRole('checkbox', { name: 'Compare version 1' }).check();
  await expect(viewer.getByTestId('diff-view').locator('.cm-line', { hasText: 'step' }).first()).toBeVisible();
  await shoot(viewer, '23-compare-two-versions');
  await viewer.getByRole('button', { name: 'Stop comparing' }).click();
  await versions(viewer).first().getByRole('button').click();
  await expect(viewer.getByText('Identical to the file on disk')).toBeVisible();
  await shoot(viewer, '24-current-version');
  await versions(viewer).last().getByRole('button').click();

  await viewer.getByRole('button', { name: 'Restore this version' }).click();
  await expect(viewer.getByRole('dialog').getByTestId('diff-view')).toBeVisible();
  await shoot(viewer, '08-restore-dialog');
  await viewer.getByRole('dialog').getByRole('button', { name: 'Restore', exact: true }).click();
  await expect(viewer.getByRole('button', { name: 'Undo' })).toBeVisible();
  await shoot(viewer, '09-restored-toast');

  await selectFile(viewer, 'assets/logo.png');
  await expect(viewer.getByRole('img')).toBeVisible();
  await shoot(viewer, '10-image');
  await selectFile(viewer, 'assets/archive.zip');
  await shoot(viewer, '11-binary');

  await viewer.getByLabel('Filter files').fill('*.tsx');
  await shoot(viewer, '20-filter-glob');
  await viewer.getByLabel('Filter files').fill('nothing-like-this');
  await shoot(viewer, '21-filter-no-match');
  await viewer.getByLabel('Filter files').fill('');
  await viewer.getByRole('button', { name: /^Deleted \(/ }).click();
  await shoot(viewer, '22-deleted-list');
  await viewer.getByRole('button', { name: 'All files' }).click();

  await viewer.getByLabel('Show deleted files').check();
  await selectFile(viewer, 'old/draft.md');
  await expect(versions(viewer).first()).toContainText('Deleted');
  await versions(viewer).first().getByRole('button').click();
  await shoot(viewer, '12-deleted-file');

  await viewer.getByRole('tab', { name: 'Timeline' }).click();
  await expect(viewer.getByRole('list', { name: 'Snapshots' }).getByRole('listitem').first()).toBeVisible();
  await shoot(viewer, '13-timeline');
  const snapshots = viewer.getByRole('list', { name: 'Snapshots' }).getByRole('listitem');
  await snapshots.last().getByRole('button').click();
  await viewer.getByRole('button', { name: 'Restore project…' }).click();
  await expect(viewer.getByLabel('Restore preview')).toBeVisible();
  await shoot(viewer, '14-restore-preview');
  await viewer.keyboard.press('Escape');
  await viewer.getByRole('button', { name: 'Checkpoint' }).click();
  await viewer.getByLabel('Label').fill('Before the redesign');
  await shoot(viewer, '15-checkpoint');
  await viewer.keyboard.press('Escape');
  await viewer.getByRole('button', { name: 'Open as a new folder…' }).click();
  await viewer.getByRole('textbox', { name: 'New folder' }).fill('/home/me/project-as-it-was');
  await shoot(viewer, '15b-open-as-new-folder');
  await viewer.keyboard.press('Escape');
  await viewer.getByRole('button', { name: 'Restore a folder…' }).click();
  await expect(viewer.getByRole('list', { name: 'Folders in this snapshot' })).toBeVisible();
  await shoot(viewer, '25-restore-folder-picker');
  await viewer.keyboard.press('Escape');
  await viewer.getByRole('button', { name: 'Checkpoint' }).click();
  await viewer.getByLabel('Label').fill('Before the redesign of the counter, the styles and every page that shows them to a visitor');
  await viewer.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  await snapshots.first().getByRole('button').click();
  await expect(viewer.getByText(/changed since the (first copy|previous checkpoint)/).first()).toBeVisible();
  await shoot(viewer, '26-timeline-checkpoint');

  const search = viewer.getByRole('searchbox', { name: 'Search history' });
  await search.fill('count');
  await search.press('Enter');
  await expect(viewer.getByRole('list', { name: 'Search results' })).toBeVisible();
  await shoot(viewer, '23-search-results');
  await viewer
    .getByRole('button', { name: /^Open src\/Counter\.tsx line 5/ })
    .first()
    .click();
  await expect(viewer.locator('.cm-search-hit')).toBeVisible();
  await shoot(viewer, '24-search-opened');

  // A remote set (never pushed here): the Store tab says what it lacks.
  const configFile = join(dataDir, 'config.json');
  const config = JSON.parse(readFileSync(configFile, 'utf8')) as Record<string, unknown>;
  writeFileSync(
    configFile,
    JSON.stringify({
      ...config,
      remotes: [{ name: 'backup', url: 's3://team-bucket/hindsight', endpoint: null, region: 'eu-west-1', pathStyle: false, addedAt: 0 }],
    }),
  );
  await viewer.getByRole('tab', { name: 'Store' }).click();
  await expect(viewer.getByRole('list', { name: 'Remotes' })).toBeVisible();
  await viewer.getByRole('button', { name: 'Verify' }).click();
  await expect(viewer.getByText('blobs are intact')).toBeVisible();
  await shoot(viewer, '16-store-verified');

  // A version whose blob is missing from the store.
  const projectsDir = join(dataDir, 'projects');
  for (const project of readdirSync(projectsDir)) {
    const blobs = join(projectsDir, project, 'blobs');
    for (const fan of readdirSync(blobs)) {
      if (fan.length !== 2) continue;
      for (const blob of readdirSync(join(blobs, fan))) rmSync(join(blobs, fan, blob));
    }
  }
  await viewer.getByRole('tab', { name: 'Files' }).click();
  await selectFile(viewer, 'notes.txt');
  await expect(viewer.getByText('missing from the history store').first()).toBeVisible();
  await shoot(viewer, '17-blob-missing');

  // A folder that moved away while the app is open: the reload comes back to it, with its banner;
  // then the start screen's recent projects.
  renameSync(dir, `${dir}-moved`);
  rmSync(empty, { recursive: true, force: true });
  await viewer.reload();
  await expect(viewer.getByRole('alert').filter({ hasText: 'not there any more' })).toBeVisible();
  await shoot(viewer, '18-project-gone');
  await viewer.getByRole('button', { name: 'Hindsight', exact: true }).click();
  await expect(viewer.getByRole('list', { name: 'Recent projects' })).toBeVisible();
  await shoot(viewer, '18-start-recent');
  renameSync(`${dir}-moved`, dir);
});

test.describe('a folder past the large-folder settings', () => {
  test.use({ configJson: JSON.stringify({ settings: { largeFolderFiles: 100 } }) });
  test('asks first', async ({ viewer, folder }) => {
    const dir = folder('hindsight-e2e-home-');
    writeBigTree(dir, 300, 1024);
    await openFolder(viewer, dir);
    await expect(viewer.getByRole('dialog', { name: 'Copy this large folder?' })).toBeVisible();
    await shoot(viewer, '20-large-folder');
  });
});

test.describe('corrupt config', () => {
  test.use({ configJson: '{"projects": [ this is not json' });
  test('banner', async ({ viewer }) => {
    await expect(viewer.getByRole('alert')).toBeVisible();
    await shoot(viewer, '19-config-corrupt');
  });
});
