import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { groupByFile } from '../../../renderer/features/project/searchGroups.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';
import { openInViewer, startViewer } from './viewerHarness.js';

// A regex found in a file edited many times away from the matched line: the engine answers one
// hit per content, the Search tab shows one row for the lines they all share, with every version
// counted; a content whose matched lines differ keeps a row of its own. Real engine, real search.

describe('search rows folded by the lines they show', () => {
  it('folds the hits of one file that show the same lines, and keeps a different line apart', async () => {
    const viewer = await startViewer();
    const root = tempDir();
    writeTree(root, { 'app.ts': 'const timeoutMs = 100;\n// edit 0\n', 'other.ts': 'nothing here\n' });
    const projectId = await openInViewer(viewer, root);
    for (let i = 1; i <= 5; i++) {
      writeFileSync(join(root, 'app.ts'), `const timeoutMs = 100;\n// edit ${i}${' '.repeat(i)}\n`);
      await viewer.engine.rescan(projectId);
    }
    writeFileSync(join(root, 'app.ts'), 'const timeoutMs = 250;\n');
    await viewer.engine.rescan(projectId);

    viewer.app.setState({ searchQuery: 'timeout[A-Z][a-z]+ = \\d+', searchRegex: true });
    await viewer.app.getState().runSearch();
    const hits = viewer.app.getState().searchResult!.results;
    expect(hits).toHaveLength(7);
    const [group, ...others] = groupByFile(hits);
    expect(others).toEqual([]);
    expect(group!.rows.map((r) => [r.folded, r.versions, r.hit.matches[0]!.preview])).toEqual([
      [1, 1, 'const timeoutMs = 250;'],
      [6, 6, 'const timeoutMs = 100;'],
    ]);
    // The folded row opens the newest of its contents.
    const folded = group!.rows[1]!;
    expect(folded.hit.lastSeen).toBe(Math.max(...hits.filter((h) => h.matches[0]!.preview.endsWith('100;')).map((h) => h.lastSeen)));
    // The file as it is now still matches the regex (with 250): not marked gone.
    expect(folded.stillPresent).toBe(true);
  });
});
