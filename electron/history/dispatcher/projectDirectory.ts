import { basename } from 'node:path';
import { HindsightError } from '../../../shared/errors.js';
import type { ProjectState, ProjectSummary } from '../../../shared/contract.js';

// Which folder each projectId names: the projects this process opened, and those config.json
// knows. The viewer speaks in projectIds; the engine in folders.

export interface KnownProjectLike {
  readonly id: string;
  readonly root: string;
  readonly name: string;
  readonly pinned?: boolean;
  readonly lastOpenedAt?: number;
  readonly lastSeen?: ProjectState;
}

interface OpenEntry {
  root: string;
  open: boolean;
  openedAt: number;
}

export class ProjectDirectory {
  private readonly opened = new Map<string, OpenEntry>();

  /** `known` reads config.json's projects (an empty list when it cannot be read). */
  constructor(private readonly known: () => readonly KnownProjectLike[] = () => []) {}

  remember(projectId: string, root: string): ProjectSummary {
    this.opened.set(projectId, { root, open: true, openedAt: Date.now() });
    return this.summary(projectId);
  }

  markClosed(projectId: string): void {
    const entry = this.opened.get(projectId);
    if (entry) entry.open = false;
  }

  /** Drops a closed project (the user forgot it); an open one stays until closed. */
  forget(projectId: string): void {
    if (!this.isOpen(projectId)) this.opened.delete(projectId);
  }

  isOpen(projectId: string): boolean {
    return this.opened.get(projectId)?.open === true;
  }

  rootOf(projectId: string): string {
    const root = this.opened.get(projectId)?.root ?? this.known().find((p) => p.id === projectId)?.root;
    if (root === undefined) {
      throw new HindsightError('NOT_FOUND', `No project with id ${projectId} is known. Open its folder first.`, { projectId });
    }
    return root;
  }

  summary(projectId: string): ProjectSummary {
    const found = this.summaries().find((p) => p.projectId === projectId);
    if (!found) throw new HindsightError('NOT_FOUND', `No project with id ${projectId} is known.`, { projectId });
    return found;
  }

  /** Every known project, config.json's first, then those opened here that it does not list. */
  summaries(): ProjectSummary[] {
    const out = new Map<string, ProjectSummary>();
    for (const p of this.known()) {
      out.set(p.id, {
        projectId: p.id,
        root: p.root,
        name: p.name || basename(p.root) || p.root,
        state: p.lastSeen ?? 'present',
        open: this.isOpen(p.id),
        pinned: p.pinned ?? false,
        lastOpenedAt: Math.max(p.lastOpenedAt ?? 0, this.opened.get(p.id)?.openedAt ?? 0) || null,
      });
    }
    for (const [projectId, entry] of this.opened) {
      if (out.has(projectId)) continue;
      out.set(projectId, {
        projectId,
        root: entry.root,
        name: basename(entry.root) || entry.root,
        state: 'present',
        open: entry.open,
        pinned: false,
        lastOpenedAt: entry.openedAt,
      });
    }
    return [...out.values()];
  }
}
