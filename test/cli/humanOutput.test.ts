import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, cliJson, finished, runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDirs.js';
import { writeTree } from '../helpers/writeTree.js';

// What a person reads: a header row over every listing, times in their own time zone, "1 file"
// and "2 files", and a progress line that says once what it is doing.

const ZONE = 'Asia/Kathmandu'; // UTC+05:45: a wrong zone, or UTC, cannot pass by chance

function localTime(ms: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(ms));
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}:${get('second')}`;
}

async function human(args: string[], env: NodeJS.ProcessEnv = {}): Promise<string[]> {
  const result = await runCli(args, { TZ: ZONE, ...env });
  expect(result.code, result.stderr).toBe(0);
  return result.stdout.toString('utf8').trimEnd().split('\n');
}

/** The terminal's erase-to-end-of-line sequence the bar ends each redraw with. */
const ERASE_LINE = '\u001b[K';

describe('human output', () => {
  it('lists under a header row, with local times', async () => {
    const root = tempDir();
    writeTree(root, { 'a.txt': 'a\n', 'src/b.txt': 'b\n' });
    const dataDir = tempDir('hindsight-data-');
    await cliJson(['open', root, '--data-dir', dataDir]);
    writeFileSync(join(root, 'a.txt'), 'a changed\n');
    await cliJson(['open', root, '--data-dir', dataDir]);
    const [snapshot] = await cliJson<{ at: number }[]>(['log', root, '--data-dir', dataDir]);

    const log = await human(['log', root, '--data-dir', dataDir]);
    expect(log[0]).toMatch(/^SNAPSHOT\s+KIND\s+TIME\s+FILES\s+ORIGIN\s+LABEL$/);
    expect(log[1]).toMatch(new RegExp(`^\\s*1\\s+baseline\\s+${localTime(snapshot!.at, ZONE)}\\s+2\\s+First copy\\s+Baseline$`));

    const versions = await human(['log', root, 'a.txt', '--data-dir', dataDir]);
    expect(versions[0]).toMatch(/^VERSION\s+DISK\s+KIND\s+TIME\s+SIZE\s+MODE\s+HASH\s+RESTORE WITH\s+ORIGIN\s+NOTE$/);
    expect(versions).toHaveLength(3);
    expect(versions[1]).toContain(localTime(snapshot!.at, ZONE));
    expect(versions[1]).toMatch(/First copy$/);
    // The version identical to the file on disk now is marked.
    expect(versions[2]).toMatch(/^\s*\d+\s+current\s+.*Edited$/);
    expect(versions[1]).not.toContain('current');

    const files = await human(['files', root, '--data-dir', dataDir]);
    expect(files[0]).toMatch(/^MODE\s+SIZE\s+HASH\s+PATH$/);
    expect(files.slice(1).map((l) => l.split(/\s+/).at(-1))).toEqual(['a.txt', 'src/b.txt']);

    const projects = await human(['projects', '--data-dir', dataDir]);
    expect(projects[0]).toMatch(/^STATE\s+PINNED\s+LAST OPENED\s+ID\s+FOLDER$/);
    expect(projects[1]).toMatch(/^present\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+[0-9a-f]{32}\s+\//);

    rmSync(join(root, 'src/b.txt'));
    await cliJson(['open', root, '--data-dir', dataDir]);
    const [gone] = await cliJson<{ deletedAt: number }[]>(['deleted', root, '--data-dir', dataDir]);
    const deleted = await human(['deleted', root, '--data-dir', dataDir]);
    expect(deleted[0]).toMatch(/^DELETED\s+RESTORE WITH\s+PATH$/);
    expect(deleted[1]).toMatch(new RegExp(`^${localTime(gone!.deletedAt, ZONE)}\\s+--version \\d+\\s+src/b.txt$`));
  });

  it('counts in words with correct plurals', async () => {
    const one = tempDir();
    writeTree(one, { 'only.txt': 'x' });
    const dataDir = tempDir('hindsight-data-');
    const [opened] = await human(['open', one, '--data-dir', dataDir]);
    expect(opened).toMatch(/^Copied .*: 1 file \(1 byte\) in [\d.]+ m?s, 1 blob stored\.$/);
    const [verified] = await human(['verify', one, '--data-dir', dataDir]);
    expect(verified).toBe('1 blob checked: all intact.');

    const two = tempDir();
    writeTree(two, { 'a.txt': 'a', 'b.txt': 'bb' });
    const [copied] = await human(['open', two, '--data-dir', dataDir]);
    expect(copied).toMatch(/: 2 files \(3 bytes\) in .*, 2 blobs stored\.$/);
    const [reopened] = await human(['open', two, '--data-dir', dataDir]);
    expect(reopened).toMatch(/^Opened .*: 2 files \(3 bytes\), checked in .*; the store holds 2 blobs\.$/);
  });

  it('labels the progress line once, on a real terminal', async () => {
    const root = tempDir();
    const spec: Record<string, string> = {};
    for (let i = 0; i < 50; i++) spec[`f${i}.txt`] = `${i}\n`.repeat(1000);
    writeTree(root, spec);
    const dataDir = tempDir('hindsight-data-');
    await cliJson(['open', root, '--data-dir', dataDir]);
    // script(1) gives the command a pseudo-terminal, so its stderr is a TTY as in a shell.
    const command = `'${process.execPath}' '${CLI}' verify '${root}' --data-dir '${dataDir}'`;
    const result = await finished(spawn('script', ['-qec', command, '/dev/null'], { stdio: ['ignore', 'pipe', 'pipe'] }));
    const screen = result.stdout.toString('utf8');
    expect(result.code, screen).toBe(0);
    const lines = screen
      .split(/\r|\n/)
      .map((l) => l.replaceAll(ERASE_LINE, ''))
      .filter((l) => l.includes('['));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/^(Verifying|Verified) \[[#-]{28}\]\s+\d+% {2}[\d,]+ of [\d,]+ files {2}/);
    expect(screen).not.toMatch(/verify verify/i);
    expect(lines.at(-1)).toMatch(/^Verified \[#{28}\] 100% {2}50 of 50 files/);
  });
});
