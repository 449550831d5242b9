import { basename } from 'node:path';
import { HindsightError } from '../../../shared/errors.js';
import type { ProjectSummary } from '../../../shared/contract.js';

// Which folder each projectId names, for the projects this process has opened. The viewer speaks
// in projectIds; the engine in folders.

interface Entry {
  root: string;
  open: boolean;
  lastOpenedAt: number;
}

export class ProjectDirectory {
  private readonly entries = new Map<string, Entry>();

  remember(projectId: string, root: string): ProjectSummary {
    this.entries.set(projectId, { root, open: true, lastOpenedAt: Date.now() });
    return this.summary(projectId);
  }

  rootOf(projectId: string): string {
    const entry = this.entries.get(projectId);
    if (!entry) {
      throw new HindsightError('NOT_FOUND', `No project with id ${projectId} is open. Open its folder first.`, { projectId });
    }
    return entry.root;
  }

  markClosed(projectId: string): void {
    const entry = this.entries.get(projectId);
    if (entry) entry.open = false;
  }

  summary(projectId: string): ProjectSummary {
    const entry = this.entries.get(projectId);
    if (!entry) throw new HindsightError('NOT_FOUND', `No project with id ${projectId} is known.`, { projectId });
    return {
      projectId,
      root: entry.root,
      name: basename(entry.root) || entry.root,
      state: 'present',
      open: entry.open,
      pinned: false,
      lastOpenedAt: entry.lastOpenedAt,
    };
  }

  summaries(): ProjectSummary[] {
    return [...this.entries.keys()].map((id) => this.summary(id));
  }
}
