import { call } from '../api/hindsight.js';
import type { GetApp, SetApp } from './appState.js';

// What marks the rows of the selected file's versions: which of them the disk holds now, and
// git's committed and staged versions. Each answer is kept only while its file is still shown.

export async function loadDisk(set: SetApp, get: GetApp, projectId: string, path: string): Promise<void> {
  try {
    const disk = await call('diskState', { projectId, path });
    if (get().versionsPath === path) set({ disk });
  } catch {
    // Unknown: no row is marked current, and restoring stays possible.
    if (get().versionsPath === path) set({ disk: null });
  }
}

export async function loadGit(set: SetApp, get: GetApp, projectId: string, path: string): Promise<void> {
  try {
    const git = await call('gitVersions', { projectId, path });
    if (get().versionsPath === path) set({ gitVersions: git.repository ? git : null });
  } catch {
    if (get().versionsPath === path) set({ gitVersions: null });
  }
}
