import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

// The blob store has one owner (electron/history/store/): the project's lint refuses code
// elsewhere that makes a blob's path, places a blob temp or names blobs/, and lets the owner do it.

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

async function blobProblems(code: string, filePath: string): Promise<string[]> {
  const [result] = await new ESLint({ cwd: REPO }).lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

const OUTSIDE = [
  ["import { blobPath } from '../store/storeLayout.js';\nexport const file = blobPath('d', 'h');\n", 'a blob path made from the layout'],
  ["import { compressedBlobPath as p } from '../store/storeLayout.js';\nexport const file = p('d', 'h');\n", 'a compressed blob path, renamed on import'],
  ["import { placeBlob } from '../store/placeBlob.js';\nexport const place = placeBlob;\n", 'a blob temp placed by hand'],
  ["import { join } from 'node:path';\nexport const dir = join('store', 'blobs');\n", 'blobs/ named by hand'],
] as const;

describe('the blob owner lint', () => {
  for (const [code, what] of OUTSIDE) {
    it(`refuses ${what} outside store/`, async () => {
      expect(await blobProblems(code, 'electron/history/retention/anything.ts')).not.toEqual([]);
    });
  }

  it('lets store/ itself make blob paths, and others go through its functions', async () => {
    expect(await blobProblems(OUTSIDE[0][0], 'electron/history/store/anything.ts')).toEqual([]);
    const through = "import { removeBlob } from '../store/blobFiles.js';\nexport const remove = (dir: string) => removeBlob(dir, 'h');\n";
    expect(await blobProblems(through, 'electron/history/retention/anything.ts')).toEqual([]);
  });
});
