import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RecoveredRestore } from '../../../shared/history.js';
import { RecoveredRestoresList } from '../../../renderer/features/errors/RecoveredRestoresBanner.js';
import { killAtPoint } from '../../helpers/killAtPoint.js';
import { cliJson, startCli } from '../../helpers/runCli.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';
import { startViewer } from './viewerHarness.js';

// A restore stopped midway is finished by the next open (completed, or rolled back); the viewer
// shows what the open said (its recoveredRestores) as a notice on the project until dismissed,
// with each path left alone because it was changed since. A real CLI restore, SIGKILLed at a
// fault point, then the viewer's open against the real engine.

function render(recovered: RecoveredRestore[]): string {
  return renderToStaticMarkup(createElement(RecoveredRestoresList, { recovered, onDismiss: () => undefined }));
}

describe('restores finished by an open, in the viewer', () => {
  it('a restore killed midway: the viewer opening the folder keeps what its open rolled back and left alone, until dismissed', async () => {
    const root = tempDir();
    const dataDir = tempDir('hindsight-data-');
    const cli = (...args: string[]) => [...args, '--data-dir', dataDir];
    writeTree(root, { 'a.txt': 'a one\n', 'b.txt': 'b one\n' });
    await cliJson(cli('open', root));
    writeTree(root, { 'a.txt': 'a two\n', 'b.txt': 'b two\n' });
    await cliJson(cli('open', root));
    const child = startCli(cli('restore', root, '--snapshot', '1'), { HINDSIGHT_STOP_AT: 'restore-written' });
    expect((await killAtPoint(child, 'restore-written')).signal).toBe('SIGKILL');
    // Edited after the kill: the rollback leaves it as it is and says so.
    writeFileSync(join(root, 'b.txt'), 'b edited\n');

    const viewer = await startViewer({ dataDir });
    expect(await viewer.app.getState().openFolder(root)).toBe(true);
    const projectId = viewer.app.getState().currentProjectId!;
    expect(viewer.app.getState().recoveredRestores[projectId]).toEqual([
      { outcome: 'rolled-back', putBack: ['a.txt'], leftAlone: [{ path: 'b.txt', reason: 'changed since the restore' }] },
    ]);
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('a two\n');
    // Told once: the next open has nothing more to say, and the notice stays until dismissed.
    expect(await viewer.app.getState().openFolder(root)).toBe(true);
    expect(viewer.app.getState().recoveredRestores[projectId]).toHaveLength(1);
    viewer.app.getState().dismissRecoveredRestores(projectId);
    expect(viewer.app.getState().recoveredRestores[projectId]).toEqual([]);
  }, 60_000);

  it('the notice says what was completed or rolled back and names each path left alone', () => {
    const html = render([
      { outcome: 'rolled-back', putBack: ['a.txt', 'c.txt'], leftAlone: [{ path: 'b.txt', reason: 'changed since the restore' }] },
      { outcome: 'completed', putBack: [], leftAlone: [] },
    ]);
    expect(html).toContain('role="status"');
    expect(html).toContain('aria-label="Restores finished at open"');
    expect(html).toContain('2 restores were stopped midway; opening the folder finished them.');
    expect(html).toContain('Rolled back: 2 paths put back as they were before it.');
    expect(html).toContain('<code>b.txt</code> left as it is (changed since the restore)');
    expect(html).toContain('Completed: it had been recorded, and stands as restored.');
    expect(html).toMatch(/<button[^>]*>Dismiss<\/button>/);
  });
});
