import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { GitFolderState } from '../../../shared/git.js';
import { currentBranch } from './currentBranch.js';
import { findRepository, type GitRepository } from './findRepository.js';
import { headLogSize } from './headLog.js';
import { HeadReader, type HeadState } from './readHead.js';
import { revParseHead } from './revParseHead.js';
import type { TrackedPaths } from './trackedPaths.js';
import { cachedTrackedPaths } from './trackedPathsCache.js';

// A project store's view of git: whether its folder is in a repository, and the branch and commit
// HEAD is on. current() is synchronous and starts no git (a few stats; the files are read again
// only when they changed), so every snapshot can record it; refresh() asks git itself, for the
// rare repository whose refs files cannot tell (reftable).

const NO_GIT: HeadState = { branch: null, head: null };

export class GitContext {
  private repo: GitRepository | undefined;
  private reader: HeadReader | undefined;
  /** The stat of <root>/.git when no repository was found, so a `git init` is noticed. */
  private absentKey = '';
  private fromGit: HeadState = NO_GIT;
  private logAtSnapshot: number | undefined;
  private pinnedLog: number | undefined;
  private pinnedAt: HeadState | undefined;

  constructor(readonly root: string) {
    this.discover();
  }

  repository(): GitRepository | undefined {
    if (this.repo ? !exists(join(this.repo.gitDir, 'HEAD')) : stamp(join(this.root, '.git')) !== this.absentKey) this.discover();
    return this.repo;
  }

  /** The branch and commit HEAD is on now; nulls outside a repository. */
  current(): HeadState {
    if (!this.repository() || !this.reader) return NO_GIT;
    return this.reader.read() ?? this.fromGit;
  }

  /**
   * HEAD for a snapshot being written, noting how far HEAD's reflog reached then, so the next
   * change group can tell whether git moved HEAD since (see headCheckpoint).
   */
  snapshotContext(): HeadState {
    const state = this.pinnedAt ?? this.current();
    this.logAtSnapshot = this.repo ? (this.pinnedLog ?? headLogSize(this.repo.gitDir)) : undefined;
    return state;
  }

  /** The history holds HEAD's moves only up to `size` of the reflog (the moves after it are recorded one at a time). */
  noteHeadLog(size: number): void {
    this.logAtSnapshot = size;
  }

  /**
   * While a group of changes is written, the moves it holds end at `size` of the reflog: its
   * snapshots mark only those as recorded, not a move git made while the group was being read,
   * and are written at `at`, where HEAD stood then.
   */
  pinHeadLog(size: number | undefined, at?: HeadState): void {
    this.pinnedLog = size;
    this.pinnedAt = size === undefined ? undefined : at;
  }

  /** Where HEAD stood when the reflog reached the pinned size (git may have moved it since): the group's files are there. */
  pinnedHead(): HeadState | undefined {
    return this.pinnedAt;
  }

  pinnedHeadLog(): number | undefined {
    return this.pinnedLog;
  }

  headLogAtLastSnapshot(): number | undefined {
    return this.logAtSnapshot;
  }

  /** HEAD from the files when they can tell, else from git. */
  async head(): Promise<HeadState> {
    if (!this.repository() || !this.reader) return NO_GIT;
    return this.reader.read() ?? (await this.refresh());
  }

  /** HEAD as git itself reports it (starts git twice). */
  async refresh(): Promise<HeadState> {
    const repo = this.repository();
    if (!repo) return NO_GIT;
    const [head, branch] = await Promise.all([revParseHead(repo.workTree), currentBranch(repo.workTree)]);
    this.fromGit = { branch: branch ?? null, head: head ?? null };
    return this.fromGit;
  }

  /** The files git tracks in the project folder (recorded whatever a .gitignore says); undefined outside a repository. */
  async tracked(): Promise<TrackedPaths | undefined> {
    const repo = this.repository();
    return repo ? cachedTrackedPaths(this.root, repo) : undefined;
  }

  state(): GitFolderState {
    if (!this.repository()) return false;
    return { repository: true, ...this.current() };
  }

  private discover(): void {
    this.repo = findRepository(this.root);
    this.reader = this.repo ? new HeadReader(this.repo) : undefined;
    this.absentKey = this.repo ? '' : stamp(join(this.root, '.git'));
  }
}

function exists(path: string): boolean {
  return stamp(path) !== '-';
}

function stamp(path: string): string {
  try {
    const st = statSync(path, { bigint: true });
    return `${st.ino}:${st.mtimeNs}`;
  } catch {
    return '-';
  }
}
