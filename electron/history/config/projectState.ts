import { statSync } from 'node:fs';
import { currentIdentity, sameIdentity } from '../project/folderIdentity.js';
import type { KnownProject, ProjectState } from './configSchema.js';

// What is at a known project's path now: its folder (present), another folder (moved: the one we
// knew was moved away or replaced), or no folder at all (gone).

export function observeProject(project: Pick<KnownProject, 'root' | 'identity'>): ProjectState {
  if (!isFolder(project.root)) return 'gone';
  const now = currentIdentity(project.root);
  if (!now) return 'gone';
  if (project.identity && !sameIdentity(project.identity, now)) return 'moved';
  return 'present';
}

function isFolder(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
}
