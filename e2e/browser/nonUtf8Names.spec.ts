import { mkdirSync, writeFileSync } from 'node:fs';
import { expect, openProject, test } from './fixtures/viewer.js';

// A name that is not UTF-8 is shown with its bytes as \xNN in the tree, and its versions open.

const bytePath = (root: string, ...parts: (string | number[])[]) => Buffer.concat([Buffer.from(`${root}/`), ...parts.map((p) => Buffer.from(p as never))]);

test('names that are not UTF-8 are shown escaped, and their files open', async ({ viewer, folder }) => {
  const root = folder();
  writeFileSync(`${root}/plain.txt`, 'plain\n');
  writeFileSync(bytePath(root, [0x66, 0xff, 0x2e, 0x74]), 'bytes ff\n');
  mkdirSync(bytePath(root, [0x64, 0xe9]));
  writeFileSync(bytePath(root, [0x64, 0xe9], '/inner.txt'), 'inner\n');
  await openProject(viewer, root);
  const tree = viewer.getByRole('tree', { name: 'Files' });
  await tree.getByRole('treeitem', { name: 'd\\xE9', exact: true }).click();
  await expect(tree.getByRole('treeitem', { name: 'inner.txt', exact: true })).toBeVisible();
  await tree.getByRole('treeitem', { name: 'f\\xFF.t', exact: true }).click();
  await expect(viewer.locator('.toolbar-name')).toHaveText('f\\xFF.t');
  await expect(viewer.getByRole('heading', { name: 'f\\xFF.t' })).toBeVisible();
  await expect(viewer.getByText('bytes ff')).toBeVisible();
});
