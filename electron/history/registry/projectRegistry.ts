import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { HindsightError } from '../../../shared/errors.js';
import type { ProjectSummary } from '../../../shared/contract/values.js';
import type { NameRules } from '../../../shared/nameFold.js';
import { nameRulesOf } from '../paths/nameRules.js';
import type { KnownProject } from '../config/configSchema.js';
import type { FrozenConfig } from '../config/configStore.js';
import { OpenProject } from './openProject.js';
import { projectIdOf } from '../project/projectId.js';
import { ProjectStore, resolveFolder, type StoreOptions } from '../project/projectStore.js';
import { recoverRestore } from '../restore/restoreRecovery.js';

// The engine's projects by projectId: the open ones (one OpenProject record each) and the folders
// this process was given, so an id config.json does not list (yet) is still found. Callers speak
// in projectIds; a folder becomes one once, here (locate).

type KnownProjects = () => FrozenConfig['projects'];

interface Seen {
  root: string;
  /** When this process opened it (engine.open), if it did. */
  openedAt: number | null;
}

export class ProjectRegistry {
  private readonly records = new Map<string, OpenProject>();
  private readonly seen = new Map<string, Seen>();

  constructor(
    private readonly dataDir: string,
    private readonly known: KnownProjects,
    private readonly storeOptions: StoreOptions = {},
  ) {}

  /** The projectId of a folder (its real path hashed); nothing is opened. */
  locate(folder: string): string {
    const root = resolveFolder(folder);
    const projectId = projectIdOf(root);
    if (!this.seen.has(projectId)) this.seen.set(projectId, { root, openedAt: null });
    return projectId;
  }

  rootOf(projectId: string): string {
    const root = this.seen.get(projectId)?.root ?? this.known().find((p) => p.id === projectId)?.root;
    if (root === undefined) {
      throw new HindsightError('NOT_FOUND', `No project with id ${projectId} is known. Open its folder first.`, { projectId });
    }
    return root;
  }

  /** The project's record, its store opened on first use. */
  get(projectId: string): OpenProject {
    const open = this.records.get(projectId);
    if (open) return open;
    const store = ProjectStore.open(this.rootOf(projectId), this.dataDir, { recoverRestore, ...this.storeOptions });
    if (store.projectId !== projectId) {
      // The folder at the known path is now another real path's (a link moved): not this project.
      store.close();
      throw new HindsightError('FOLDER_REPLACED', `The folder of project ${projectId} is no longer at ${store.root}.`, { projectId, root: store.root });
    }
    const record = new OpenProject(store);
    this.records.set(projectId, record);
    return record;
  }

  /** The record when the project is open, without opening it. */
  find(projectId: string): OpenProject | undefined {
    return this.records.get(projectId);
  }

  all(): OpenProject[] {
    return [...this.records.values()];
  }

  /** Marks a project opened by engine.open (listed as open, with its open time). */
  markOpened(record: OpenProject): void {
    record.opened = true;
    this.seen.set(record.projectId, { root: record.root, openedAt: Date.now() });
  }

  /** Closes the project's watcher, store and database handle; later calls open it again. */
  async close(projectId: string): Promise<void> {
    const record = this.records.get(projectId);
    if (!record) return;
    this.records.delete(projectId);
    await record.close();
  }

  /** Closes every store at once (watchers must have been stopped: see stopWatchers). */
  closeAll(): void {
    for (const record of this.records.values()) {
      void record.searchBuilder?.stop(); // stops before its next batch: the store closes now
      void record.compaction?.stop(); // the same: a batch being looked at is dropped, none is written
      record.store.close();
    }
    this.records.clear();
  }

  async stopWatchers(): Promise<void> {
    await Promise.all(this.all().map((record) => record.stopWatching()));
  }

  /** Drops a project the user forgot (its store stays on disk); an open one stays until closed. */
  forget(projectId: string): void {
    if (!this.records.get(projectId)?.opened) this.seen.delete(projectId);
  }

  summary(projectId: string): ProjectSummary {
    const found = this.summaries().find((p) => p.projectId === projectId);
    if (!found) throw new HindsightError('NOT_FOUND', `No project with id ${projectId} is known.`, { projectId });
    return found;
  }

  /** Every known project: config.json's first, then those opened here that it does not list. */
  summaries(): ProjectSummary[] {
    const out = new Map<string, ProjectSummary>();
    for (const p of this.known()) out.set(p.id, this.summaryOf(p));
    for (const [projectId, seen] of this.seen) {
      if (out.has(projectId) || seen.openedAt === null) continue;
      out.set(projectId, {
        projectId,
        id: projectId,
        root: seen.root,
        name: basename(seen.root) || seen.root,
        state: 'present',
        open: this.isOpen(projectId),
        pinned: false,
        lastOpenedAt: seen.openedAt,
        addedAt: null,
        lastSeen: 'present',
        nameRules: rulesIfThere(seen.root),
      });
    }
    return [...out.values()];
  }

  private summaryOf(p: Readonly<KnownProject>): ProjectSummary {
    return {
      projectId: p.id,
      id: p.id,
      root: p.root,
      name: p.name || basename(p.root) || p.root,
      state: p.lastSeen,
      open: this.isOpen(p.id),
      pinned: p.pinned,
      lastOpenedAt: Math.max(p.lastOpenedAt, this.seen.get(p.id)?.openedAt ?? 0) || null,
      addedAt: p.addedAt,
      lastSeen: p.lastSeen,
      nameRules: p.lastSeen === 'present' ? rulesIfThere(p.root) : null,
    };
  }

  private isOpen(projectId: string): boolean {
    return this.records.get(projectId)?.opened === true;
  }
}

/** The folder's name rules for the viewer to compare names as the folder does; null when no folder is there. */
function rulesIfThere(root: string): NameRules | null {
  return existsSync(root) ? nameRulesOf(root) : null;
}
