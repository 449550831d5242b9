import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { seededRandom } from '../../bench/fixtures/seededRandom.js';
import { GIT_ENV, git, tempDir } from '../git/gitFixture.js';

// Consecutive trees for comparing renames with git's: from a seed, each tree made from the one
// before by moves (some edited, around git's 50% and 75% marks, some to CRLF, some keeping their
// basename in another folder), deletions, additions (text, one line, empty, binary, symlinks,
// copies of other files), edits in place, and files sharing the same bytes split into edits of
// them (ties). The trees are committed into a real git repository (one fast-import), so
// `git diff -M50% --name-status` between two commits says what git calls a rename.

export type TreeEntry = { kind: 'file'; bytes: Buffer; executable: boolean } | { kind: 'link'; target: string };
export type Tree = Map<string, TreeEntry>;

const WORDS = 'parser lexer token tree node visit emit scope frame buffer index query cache route view model store patch merge commit'.split(' ');
const DIRS = ['', 'src/', 'src/util/', 'lib/', 'docs/'];
const NAMES = ['index.ts', 'util.py', 'README.md', 'main.c', 'a.txt', 'b.txt', 'notes', 'config.json', 'x'];

/**
 * `endInNewline`: every file (binary ones too) ends with a newline, for comparing with a git
 * before 2.44, which leaves the bytes after a file's last newline out of its score.
 */
export function treeSequence(seed: number, steps: number, options: { endInNewline?: boolean } = {}): Tree[] {
  const random = seededRandom(seed);
  const ended = (bytes: Buffer) => (options.endInNewline && bytes.length > 0 && bytes.at(-1) !== 0x0a ? Buffer.concat([bytes, Buffer.from('\n')]) : bytes);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const chance = (p: number) => random() < p;
  const line = () => {
    const words = Array.from({ length: 1 + Math.floor(random() * 14) }, () => pick(WORDS));
    return `${words.join(' ')} ${Math.floor(random() * 1000)}`;
  };
  const text = (lines: number) => Buffer.from(Array.from({ length: lines }, line).join('\n') + (chance(0.8) ? '\n' : ''));
  const binary = (size: number) => Buffer.from(Array.from({ length: size }, () => (chance(0.2) ? 0 : Math.floor(random() * 256))));
  const newContents = (): TreeEntry => {
    const r = random();
    const bytes = r < 0.55 ? text(2 + Math.floor(random() * 30)) : r < 0.75 ? text(1) : r < 0.85 ? Buffer.alloc(0) : binary(50 + Math.floor(random() * 600));
    return { kind: 'file', bytes: ended(bytes), executable: chance(0.1) };
  };
  /** Keeps about `keep` of a file's lines (or bytes of a binary file), the rest replaced, some added or dropped. */
  const edited = (bytes: Buffer, keep: number): Buffer => {
    if (bytes.includes(0)) return ended(Buffer.from(bytes.map((b) => (chance(keep) ? b : Math.floor(random() * 256)))));
    const lines = bytes.toString('latin1').split('\n');
    const out = lines.flatMap((l) => (chance(keep) ? [l] : chance(0.2) ? [] : chance(0.2) ? [line(), line()] : [line()]));
    return ended(Buffer.from(out.join('\n'), 'latin1'));
  };
  const freePath = (tree: Tree, base?: string): string => {
    for (;;) {
      const path = pick(DIRS) + (base ?? (chance(0.6) ? pick(NAMES) : `f${Math.floor(random() * 500)}.txt`));
      if (!tree.has(path)) return path;
    }
  };
  const files = (tree: Tree) => [...tree.keys()];
  const baseOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);

  let tree: Tree = new Map();
  for (let i = 0; i < 14; i++) tree.set(freePath(tree), newContents());
  const trees = [tree];
  for (let step = 1; step < steps; step++) {
    const next: Tree = new Map(tree);
    const moves = Math.floor(random() * 5);
    for (let i = 0; i < moves && next.size > 0; i++) {
      const from = pick(files(next));
      const entry = next.get(from)!;
      next.delete(from);
      const to = freePath(next, chance(0.4) ? baseOf(from) : undefined);
      if (entry.kind === 'link') next.set(to, entry);
      else {
        const keep = pick([1, 0.95, 0.8, 0.7, 0.6, 0.55, 0.5, 0.45, 0.4, 0.3, 0]);
        let bytes = keep === 1 ? entry.bytes : edited(entry.bytes, keep);
        if (chance(0.15)) bytes = Buffer.from(bytes.toString('latin1').replace(/\n/g, '\r\n'), 'latin1');
        next.set(to, { ...entry, bytes });
      }
    }
    for (let i = Math.floor(random() * (next.size > 30 ? 6 : 3)); i > 0 && next.size > 0; i--) next.delete(pick(files(next)));
    for (let i = Math.floor(random() * 4); i > 0; i--) {
      const r = random();
      const existing = [...tree.values()].filter((e) => e.kind === 'file');
      if (r < 0.1) next.set(freePath(next), { kind: 'link', target: pick(NAMES) });
      else if (r < 0.25 && existing.length > 0) next.set(freePath(next), pick(existing));
      else next.set(freePath(next), newContents());
    }
    for (let i = Math.floor(random() * 3); i > 0 && next.size > 0; i--) {
      const path = pick(files(next));
      const entry = next.get(path)!;
      if (entry.kind === 'file') next.set(path, { ...entry, bytes: edited(entry.bytes, 0.7) });
    }
    // Copies of one file, for the ties the step after may split.
    if (chance(0.12) && next.size > 0) {
      const entry = next.get(pick(files(next)))!;
      for (let i = 3 + Math.floor(random() * 4); i > 0; i--) next.set(freePath(next), entry);
    }
    if (chance(0.3))
      splitTwins(
        next,
        random,
        (bytes) => (chance(0.3) ? bytes : edited(bytes, pick([0.9, 0.6, 0.5]))),
        (base) => freePath(next, base),
      );
    tree = next;
    trees.push(tree);
  }
  return trees;
}

/** Files that share their bytes all deleted, and one to three copies or edits of those bytes added (some with one's basename): pairs of equal score. */
function splitTwins(tree: Tree, random: () => number, edit: (bytes: Buffer) => Buffer, freePath: (base?: string) => string): void {
  const byBytes = new Map<string, string[]>();
  for (const [path, e] of tree)
    if (e.kind === 'file' && e.bytes.length > 0) byBytes.set(e.bytes.toString('hex'), [...(byBytes.get(e.bytes.toString('hex')) ?? []), path]);
  const twins = [...byBytes.values()].find((paths) => paths.length > 1);
  if (!twins) return;
  const entry = tree.get(twins[0]!) as Extract<TreeEntry, { kind: 'file' }>;
  for (const path of twins) tree.delete(path);
  for (let i = 1 + Math.floor(random() * 3); i > 0; i--) {
    const twin = twins[Math.floor(random() * twins.length)]!;
    tree.set(freePath(random() < 0.5 ? twin.slice(twin.lastIndexOf('/') + 1) : undefined), { ...entry, bytes: edit(entry.bytes) });
  }
}

/** Whether this machine's git counts the bytes after a file's last newline in a rename's score (git 2.44 on). */
export function gitCountsLastLine(): boolean {
  const repo = tempDir('last-line');
  git(repo, 'init', '-q', '-b', 'main');
  const commit = (files: Record<string, string>) => {
    for (const [path, text] of Object.entries(files)) writeFileSync(join(repo, path), text);
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'probe');
  };
  // Only their last lines are alike: a rename when git counts them, none when it does not.
  commit({ a: 'XXXXXXXXXX\ntail without a newline, long enough' });
  rmSync(join(repo, 'a'));
  commit({ b: 'YYYYYYYYYY\ntail without a newline, long enough' });
  return gitRenames(repo, 'HEAD~', 'HEAD').length === 1;
}

/** A repository holding each tree as one commit, oldest first; returns its folder and the commits' ids. */
export function commitTrees(trees: readonly Tree[]): { repo: string; commits: string[] } {
  const repo = tempDir('rename-trees');
  git(repo, 'init', '-q', '-b', 'main');
  const parts: Buffer[] = [];
  const data = (bytes: Buffer) => parts.push(Buffer.from(`data ${bytes.length}\n`), bytes, Buffer.from('\n'));
  trees.forEach((tree, i) => {
    parts.push(Buffer.from(`commit refs/heads/main\nmark :${i + 1}\ncommitter T <t@example.com> ${1_700_000_000 + i} +0000\n`));
    data(Buffer.from(`tree ${i}`));
    parts.push(Buffer.from('deleteall\n'));
    for (const [path, e] of tree) {
      parts.push(Buffer.from(`M ${e.kind === 'link' ? '120000' : e.executable ? '100755' : '100644'} inline ${path}\n`));
      data(e.kind === 'link' ? Buffer.from(e.target) : e.bytes);
    }
  });
  execFileSync('git', ['fast-import', '--quiet'], { cwd: repo, env: GIT_ENV, input: Buffer.concat(parts) });
  return { repo, commits: git(repo, 'rev-list', '--reverse', 'main').split('\n') };
}

/** git's renames between two commits as "from -> to" lines, sorted (`git diff -M50% --name-status`, R lines). */
export function gitRenames(repo: string, from: string, to: string, ...options: string[]): string[] {
  return gitRenameScores(repo, from, to, ...options).map((r) => r.rename);
}

/** The same with git's score of each (R100: the same bytes). */
export function gitRenameScores(repo: string, from: string, to: string, ...options: string[]): { rename: string; score: number }[] {
  const out = execFileSync('git', ['diff', '-M50%', ...options, '--name-status', from, to], {
    cwd: repo,
    env: GIT_ENV,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return out
    .split('\n')
    .filter((l) => l.startsWith('R'))
    .map((l) => {
      const [status, oldPath, newPath] = l.split('\t');
      return { rename: `${oldPath} -> ${newPath}`, score: Number(status!.slice(1)) };
    })
    .sort((a, b) => (a.rename < b.rename ? -1 : a.rename > b.rename ? 1 : 0));
}

/** Makes a folder hold exactly `tree` where it held `before`: removed paths deleted, changed ones written. */
export function writeTreeOver(root: string, before: Tree | undefined, tree: Tree): void {
  for (const path of before?.keys() ?? []) if (!tree.has(path)) rmSync(join(root, path));
  for (const [path, e] of tree) {
    const old = before?.get(path);
    if (old && JSON.stringify(old) === JSON.stringify(e)) continue;
    mkdirSync(dirname(join(root, path)), { recursive: true });
    rmSync(join(root, path), { force: true });
    if (e.kind === 'link') symlinkSync(e.target, join(root, path));
    else writeFileSync(join(root, path), e.bytes, { mode: e.executable ? 0o755 : 0o644 });
  }
}
