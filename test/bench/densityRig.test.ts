import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';
import { ratioOf, targetLine } from './density/densityReport.js';
import { diskUsage } from './density/diskUsage.js';
import { checkOut, filesInCommit, firstParentCommits } from './density/gitReplay.js';
import { recordStates, growths, medianGrowth, finalSize } from './density/recordStates.js';
import { storeTool } from './density/storeTools.js';
import { generatedLog, logStream } from './fixtures/generatedLog.js';

// bench:density's own parts on real folders, a real git repository and the real CLI: its sizes
// must be du's, its replay must leave exactly each commit's files (deletions included), its log
// must grow by exactly the bytes asked, and a store it fills must have recorded every state.

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8' }).trim();

/** The folder's files (not folders), relative, with their contents. */
function contents(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path);
      else out[path] = readFileSync(join(dir, path), 'utf8');
    }
  };
  walk('');
  return out;
}

describe('bench:density rig', () => {
  it('counts a folder as du -sb and du -sB1 do, a hard-linked file once', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'a/b'), { recursive: true });
    writeFileSync(join(dir, 'a/one'), 'x'.repeat(5000));
    writeFileSync(join(dir, 'a/b/two'), 'y'.repeat(70_000));
    linkSync(join(dir, 'a/b/two'), join(dir, 'a/same'));
    symlinkSync('a/one', join(dir, 'link'));
    const usage = diskUsage(dir);
    expect(usage.apparentBytes).toBe(Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0]));
    expect(usage.allocatedBytes).toBe(Number(execFileSync('du', ['-sB1', dir], { encoding: 'utf8' }).split('\t')[0]));
    expect(usage.entries).toBe(6);
  });

  it('replays first-parent commits oldest first, each leaving exactly its files, deletions included', () => {
    const repo = tempDir();
    git(repo, 'init', '--quiet');
    writeFileSync(join(repo, 'keep'), 'k1');
    writeFileSync(join(repo, 'gone'), 'g');
    git(repo, 'add', '-A');
    git(repo, 'commit', '--quiet', '-m', 'first');
    git(repo, 'checkout', '--quiet', '-b', 'side');
    writeFileSync(join(repo, 'side'), 's');
    git(repo, 'add', '-A');
    git(repo, 'commit', '--quiet', '-m', 'on the side');
    git(repo, 'checkout', '--quiet', 'main');
    git(repo, 'rm', '--quiet', 'gone');
    mkdirSync(join(repo, 'dir'));
    writeFileSync(join(repo, 'dir/new'), 'n');
    writeFileSync(join(repo, 'keep'), 'k2');
    git(repo, 'add', '-A');
    git(repo, 'commit', '--quiet', '-m', 'second');
    git(repo, 'merge', '--quiet', '--no-edit', 'side');

    const commits = firstParentCommits(repo, 5);
    expect(commits.map((c) => c.subject)).toEqual(['first', 'second', "Merge branch 'side'"]);
    expect(firstParentCommits(repo, 2).map((c) => c.subject)).toEqual(['second', "Merge branch 'side'"]);

    const scratch = tempDir();
    const work = join(scratch, 'work');
    mkdirSync(work);
    const index = join(scratch, 'index');
    const expected = [
      { keep: 'k1', gone: 'g' },
      { keep: 'k2', 'dir/new': 'n' },
      { keep: 'k2', 'dir/new': 'n', side: 's' },
    ];
    for (const [i, commit] of commits.entries()) {
      checkOut(repo, index, work, commit.hash);
      expect(contents(work)).toEqual(expected[i]);
      expect(filesInCommit(repo, commit.hash)).toBe(Object.keys(expected[i]!).length);
    }
    // Backwards too: files the older commit lacks are deleted.
    checkOut(repo, index, work, commits[0]!.hash);
    expect(contents(work)).toEqual(expected[0]);
  });

  it('writes the seeded log in blocks of exactly the size asked, the same text as the whole log', () => {
    const next = logStream();
    const blocks = [next(50_000), next(1024), next(1024), next(7)];
    expect(blocks.map((b) => b.length)).toEqual([50_000, 1024, 1024, 7]);
    const whole = generatedLog(60_000);
    expect(Buffer.concat(blocks).equals(whole.subarray(0, 52_055))).toBe(true);
    expect(logStream()(1024).equals(blocks[0]!.subarray(0, 1024))).toBe(true);
    expect(whole.toString('latin1')).toMatch(/^2026-11-01T\d\d:\d\d:\d\d\.\d{3}Z (INFO|DEBUG|WARN|ERROR) \[req-[0-9a-f]+\] /);
  });

  it('works out growth per state, Hindsight over each store and the target verdict', () => {
    const at = (...bytes: number[]) => bytes.map((apparentBytes) => ({ entries: 1, apparentBytes, allocatedBytes: apparentBytes }));
    const records = [
      { name: 'hindsight', sizes: at(100, 160, 200, 230), wallMs: 0, cpuMs: 0 },
      { name: 'restic', sizes: at(50, 60, 80, 90), wallMs: 0, cpuMs: 0 },
      { name: 'git', sizes: at(40, 50, 60, 70), finished: at(30)[0], wallMs: 0, cpuMs: 0 },
    ];
    expect(growths(records[0]!.sizes)).toEqual([60, 40, 30]);
    expect(medianGrowth(records[0]!.sizes)).toBe(40);
    expect(finalSize(records[2]!).apparentBytes).toBe(30);
    const size = (r: (typeof records)[number]) => finalSize(r).apparentBytes;
    expect(ratioOf(records, size, records[1]!)).toBeCloseTo(230 / 90);
    expect(ratioOf(records, size, records[2]!)).toBeCloseTo(230 / 30);
    expect(targetLine(records, size, 'store', 1)).toBe("target (store <= 1x restic's): 2.56x, not met");
    expect(targetLine(records, (r) => medianGrowth(r.sizes), 'growth', 4)).toBe("target (growth <= 4x restic's): 4.00x, met");
    expect(targetLine(records.slice(1), size, 'store', 1)).toMatch(/not measured/);
  });

  it('fills Hindsight (through the CLI) and git with every state, and says where Hindsight keeps the bytes', async () => {
    const scratch = tempDir();
    const work = join(scratch, 'work');
    mkdirSync(work);
    const tools = [storeTool('hindsight', scratch, CLI), storeTool('git', scratch, CLI)];
    const states = ['one', 'two'.repeat(10_000), 'three'.repeat(10_000)];
    const records = await recordStates(tools, work, {
      count: states.length,
      prepare: (i) => {
        writeFileSync(join(work, 'file.txt'), states[i]!);
        return `state-${i}`;
      },
    });
    const [hindsight, gitRecord] = records;
    expect(hindsight!.sizes).toHaveLength(3);
    // Each state added a blob of its own to both stores.
    expect(growths(hindsight!.sizes).every((g) => g > 0)).toBe(true);
    expect(hindsight!.breakdown!.rawBlobs.files + hindsight!.breakdown!.compressedBlobs.files).toBe(3);
    expect(hindsight!.breakdown!.other.bytes).toBeGreaterThan(0);
    expect(gitRecord!.finished).toBeDefined();
    expect(Number(execFileSync('git', ['rev-list', '--count', 'HEAD'], { env: { ...process.env, GIT_DIR: tools[1]!.store }, encoding: 'utf8' }))).toBe(3);
  });
});
