import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { count } from '../trace.js';
import type { GitRepository } from './findRepository.js';

// The branch and commit HEAD is on, read from the files git keeps them in (HEAD, the loose ref,
// packed-refs), so every snapshot can record them without starting git. What was read is kept and
// read again only when a cheap stat of those files says they changed (git replaces them through a
// lock file and a rename, so a change always shows in the inode or the mtime).

export interface HeadState {
  branch: string | null;
  head: string | null;
}

const SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
const MAX_SYMREF_DEPTH = 5;

export class HeadReader {
  private cached: HeadState | undefined;
  /** The ref HEAD named at the last read, and the stats taken before each file was read. */
  private ref: string | undefined;
  private stamps = { head: '', ref: '', packed: '' };

  constructor(private readonly repo: Pick<GitRepository, 'gitDir' | 'commonDir'>) {}

  /** HEAD now, or undefined when git keeps it somewhere files cannot tell (reftable). */
  read(): HeadState | undefined {
    const head = stamp(join(this.repo.gitDir, 'HEAD'));
    const packed = stamp(join(this.repo.commonDir, 'packed-refs'));
    if (this.cached && head === this.stamps.head && packed === this.stamps.packed) {
      if ((this.ref === undefined ? '' : stamp(this.refPath(this.ref))) === this.stamps.ref) return this.cached;
    }
    count('git.headReads');
    // Each stat is taken before its file is read: a change racing the read shows next time.
    this.stamps = { head, ref: '', packed };
    this.cached = this.readFiles();
    return this.cached;
  }

  private readFiles(): HeadState | undefined {
    const content = readOrUndefined(join(this.repo.gitDir, 'HEAD'));
    this.ref = undefined;
    if (content === undefined) return undefined;
    if (SHA.test(content)) return { branch: null, head: content };
    let ref = symref(content);
    if (ref === undefined) return undefined;
    this.ref = ref;
    this.stamps.ref = stamp(this.refPath(ref));
    const branch = ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : ref;
    if (branch === '.invalid') return undefined; // reftable keeps refs in binary tables
    for (let depth = 0; depth < MAX_SYMREF_DEPTH; depth++) {
      const loose = readOrUndefined(this.refPath(ref));
      if (loose === undefined) return { branch, head: packedRef(this.repo.commonDir, ref) ?? null };
      if (SHA.test(loose)) return { branch, head: loose };
      const next = symref(loose);
      if (next === undefined) return { branch, head: null };
      ref = next;
    }
    return { branch, head: null };
  }

  private refPath(ref: string): string {
    // Refs of a worktree's own (bisect, rewritten) live in its git folder; branches are shared.
    const own = ref.startsWith('refs/bisect/') || ref.startsWith('refs/worktree/') || ref.startsWith('refs/rewritten/');
    return join(own ? this.repo.gitDir : this.repo.commonDir, ref);
  }
}

function symref(content: string): string | undefined {
  return content.startsWith('ref: ') ? content.slice(5) : undefined;
}

function packedRef(commonDir: string, ref: string): string | undefined {
  const packed = readOrUndefined(join(commonDir, 'packed-refs'), false);
  if (packed === undefined) return undefined;
  for (const line of packed.split('\n')) {
    if (line.endsWith(` ${ref}`) && SHA.test(line.slice(0, line.length - ref.length - 1))) return line.slice(0, line.length - ref.length - 1);
  }
  return undefined;
}

function stamp(path: string): string {
  try {
    const st = statSync(path, { bigint: true });
    return `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  } catch {
    return '-';
  }
}

function readOrUndefined(path: string, trim = true): string | undefined {
  try {
    const text = readFileSync(path, 'utf8');
    return trim ? text.trim() : text;
  } catch {
    return undefined;
  }
}
