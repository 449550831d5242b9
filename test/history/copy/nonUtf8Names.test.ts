import { describe, expect, it, onTestFinished } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { bytesOfName, displayPath } from '../../../shared/fileNameBytes.js';
import { tempDir } from '../../helpers/tempDirs.js';

// Names that are not valid UTF-8, made with their bytes: recorded with those bytes, kept apart
// from each other, restored exactly, and seen changing on a rescan.

/** An absolute path on disk as bytes: the folder, then a project path given as raw byte parts. */
function bytePath(root: string, ...parts: (string | number[])[]): Buffer {
  return Buffer.concat([Buffer.from(`${root}/`), ...parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p)))]);
}

function engine(): HistoryEngine {
  const e = new HistoryEngine(tempDir('hindsight-data-'));
  onTestFinished(() => e.close());
  return e;
}

/** A project with a file and a folder whose names are not UTF-8, and two names differing only in such bytes. */
function hostileProject(): string {
  const root = tempDir();
  writeFileSync(`${root}/plain.txt`, 'plain');
  writeFileSync(bytePath(root, [0x66, 0xff, 0x2e, 0x74]), 'f-ff'); // "f\xFF.t"
  writeFileSync(bytePath(root, [0x66, 0xfe, 0x2e, 0x74]), 'f-fe'); // "f\xFE.t": Node's strings call both "f\uFFFD.t"
  mkdirSync(bytePath(root, [0x64, 0xe9]));
  writeFileSync(bytePath(root, [0x64, 0xe9], '/inner.txt'), 'inner');
  mkdirSync(bytePath(root, [0x64, 0xe9], '/deep'));
  writeFileSync(bytePath(root, [0x64, 0xe9], '/deep/', [0x80], '.bin'), 'deep');
  // A link whose name and target are not UTF-8.
  symlinkSync(Buffer.from([0x66, 0xff, 0x2e, 0x74]), bytePath(root, [0x6c, 0xfa]));
  return root;
}

/** Every file under root, as the exact bytes of its project path, sorted. */
function bytesTree(root: string, rel: Buffer = Buffer.alloc(0)): string[] {
  const out: string[] = [];
  const dir = rel.length === 0 ? Buffer.from(root) : Buffer.concat([Buffer.from(`${root}/`), rel]);
  for (const entry of readdirSync(dir, { withFileTypes: true, encoding: 'buffer' })) {
    const path = rel.length === 0 ? entry.name : Buffer.concat([rel, Buffer.from('/'), entry.name]);
    if (entry.isDirectory()) out.push(...bytesTree(root, path));
    else out.push(path.toString('hex'));
  }
  return out.sort();
}

const EXPECTED = ['d\\xE9/deep/\\x80.bin', 'd\\xE9/inner.txt', 'f\\xFE.t', 'f\\xFF.t', 'l\\xFA', 'plain.txt'];

describe('names that are not UTF-8', () => {
  it('a first copy records such files and whole folders, each with its own name', async () => {
    const root = hostileProject();
    const e = engine();
    const opened = await e.open(root);
    expect(opened.files).toBe(6);
    const files = e.files(opened.projectId);
    expect(files.map((f) => displayPath(f.path)).sort()).toEqual(EXPECTED);
    // The stored name is the exact bytes on disk.
    expect(files.map((f) => Buffer.from(bytesOfName(f.path)).toString('hex')).sort()).toEqual(bytesTree(root));
    const ff = files.find((f) => displayPath(f.path) === 'f\\xFF.t')!;
    const fe = files.find((f) => displayPath(f.path) === 'f\\xFE.t')!;
    expect(ff.hash).not.toBe(fe.hash);
    expect((await e.readVersion(opened.projectId, ff.path, { maxBytes: 100 })).data).toBe('f-ff');
  });

  it('a rescan sees a change inside such a folder, and a file gone', async () => {
    const root = hostileProject();
    const e = engine();
    const { projectId } = await e.open(root);
    writeFileSync(bytePath(root, [0x64, 0xe9], '/deep/', [0x80], '.bin'), 'deep, changed');
    rmSync(bytePath(root, [0x66, 0xfe, 0x2e, 0x74]));
    const r = await e.rescan(projectId);
    expect(r.changed).toBe(2);
    expect(
      e
        .snapshotChanges(projectId, r.snapshotId!)
        .map((c) => displayPath(c.path))
        .sort(),
    ).toEqual(['d\\xE9/deep/\\x80.bin', 'f\\xFE.t']);
    expect(
      e
        .files(projectId)
        .map((f) => displayPath(f.path))
        .sort(),
    ).toEqual(['d\\xE9/deep/\\x80.bin', 'd\\xE9/inner.txt', 'f\\xFF.t', 'l\\xFA', 'plain.txt']);
    // Nothing changed: a second rescan records nothing.
    expect((await e.rescan(projectId)).changed).toBe(0);
  });

  it('restoring a file, a snapshot and a snapshot into a new folder writes back the exact bytes of each name', async () => {
    const root = hostileProject();
    const e = engine();
    const { projectId } = await e.open(root);
    const baseline = e.log(projectId).at(-1)!.snapshotId;
    const before = bytesTree(root);
    const ff = e.files(projectId).find((f) => displayPath(f.path) === 'f\\xFF.t')!;

    // One file, changed on disk, restored.
    writeFileSync(bytePath(root, [0x66, 0xff, 0x2e, 0x74]), 'edited');
    await e.rescan(projectId);
    const first = e.versions(projectId, ff.path).find((v) => v.snapshotId === baseline)!;
    await e.restoreFile(projectId, ff.path, first.versionId);
    expect(readFileSync(bytePath(root, [0x66, 0xff, 0x2e, 0x74]), 'utf8')).toBe('f-ff');

    // The whole folder gone, the link too, the baseline restored.
    rmSync(bytePath(root, [0x64, 0xe9]), { recursive: true });
    rmSync(bytePath(root, [0x66, 0xfe, 0x2e, 0x74]));
    rmSync(bytePath(root, [0x6c, 0xfa]));
    await e.restoreSnapshot(projectId, baseline);
    expect(bytesTree(root)).toEqual(before);
    expect(readFileSync(bytePath(root, [0x64, 0xe9], '/deep/', [0x80], '.bin'), 'utf8')).toBe('deep');
    expect(readlinkSync(bytePath(root, [0x6c, 0xfa]), { encoding: 'buffer' }).toString('hex')).toBe('66ff2e74');
    // No name was written in any other form.
    expect(readdirSync(root).filter((n) => n.includes('\uDBFF'))).toEqual([]);

    const into = `${tempDir()}/copy`;
    await e.materializeSnapshot(projectId, baseline, into);
    expect(bytesTree(into)).toEqual(before);
    expect(existsSync(`${into}/plain.txt`)).toBe(true);
    expect(readlinkSync(bytePath(into, [0x6c, 0xfa]), { encoding: 'buffer' }).toString('hex')).toBe('66ff2e74');
  });
});
