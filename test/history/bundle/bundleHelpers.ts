import { onTestFinished } from 'vitest';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { asFormat3 } from '../../helpers/bundleRecords.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { seededBytes, type TreeSpec } from '../../helpers/writeTree.js';
import { notRacy, projectWithBaseline, type Project } from '../versions/versionsHelpers.js';

// A project with a history of four snapshots (edits, a deleted folder, new folders with their own
// modes, links, a checkpoint), and what the bundle tests compare with.

const SPEC: TreeSpec = {
  'src/a.txt': 'alpha\n',
  'src/big.bin': seededBytes(3, 2_500_000),
  'src/deep/b.txt': 'beta',
  'bin/run.sh': { data: '#!/bin/sh\n', mode: 0o755 },
  'secret/key': { data: 'k', mode: 0o600 },
  'docs/link': { link: '../src/a.txt' },
  'same-1.txt': 'same bytes',
  'same-2.txt': { data: 'same bytes', mode: 0o640 },
};

export async function historyWithChanges(): Promise<Project> {
  const project = await projectWithBaseline(SPEC);
  const { engine, root, store, projectId } = project;
  chmodSync(join(root, 'secret'), 0o700);
  writeFileSync(join(root, 'src/a.txt'), 'alpha, edited\n');
  chmodSync(join(root, 'bin/run.sh'), 0o700);
  notRacy(store);
  await engine.rescan(projectId);
  rmSync(join(root, 'docs'), { recursive: true });
  mkdirSync(join(root, 'new/inner'), { recursive: true });
  writeFileSync(join(root, 'new/inner/n.txt'), 'new');
  chmodSync(join(root, 'new'), 0o750);
  symlinkSync('../src', join(root, 'new/src-link'));
  notRacy(store);
  await engine.rescan(projectId);
  await engine.checkpoint(projectId, 'before the move');
  return project;
}

export function folderModes(root: string, rel = ''): Record<string, number> {
  const out: Record<string, number> = {};
  for (const entry of readdirSync(join(root, rel), { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const path = rel ? `${rel}/${entry.name}` : entry.name;
    out[path] = statSync(join(root, path)).mode & 0o7777;
    Object.assign(out, folderModes(root, path));
  }
  return out;
}

export function otherEngine(): HistoryEngine {
  const engine = new HistoryEngine(tempDir('hindsight-data-'));
  onTestFinished(() => engine.close());
  return engine;
}

/**
 * The same history as a bundle of format 1 would have carried it: no pin or line records, no
 * origins or machines on snapshots and versions, version 1 in the first line and the header, no
 * pin or line counts, the end digest taken again. Written here from the framing of
 * docs/BUNDLE.md, independently of the exporter.
 */
export function asFormat1(bundle: Buffer): Buffer {
  return format3AsFormat1(asFormat3(bundle));
}

function format3AsFormat1(bundle: Buffer): Buffer {
  const firstLine = bundle.indexOf(0x0a) + 1;
  const parts: Buffer[] = [Buffer.from('hindsight-bundle 1\n')];
  const json = (kind: number, value: unknown): Buffer => {
    const text = Buffer.from(JSON.stringify(value));
    const head = Buffer.alloc(5);
    head[0] = kind;
    head.writeUInt32BE(text.length, 1);
    return Buffer.concat([head, text]);
  };
  for (let at = firstLine; at < bundle.length;) {
    const kind = bundle[at]!;
    if (kind === 0x42) {
      const size = Number(bundle.readBigUInt64BE(at + 33));
      parts.push(bundle.subarray(at, at + 41 + size));
      at += 41 + size;
      continue;
    }
    const length = bundle.readUInt32BE(at + 1);
    const value = JSON.parse(bundle.subarray(at + 5, at + 5 + length).toString()) as Record<string, unknown>;
    at += 5 + length;
    if (kind === 0x50 || kind === 0x4c) continue; // pins and lines: format 1 had none
    if (kind === 0x48) {
      const counts = { ...(value.counts as Record<string, unknown>) };
      delete counts.pins;
      delete counts.lines;
      parts.push(json(kind, { ...value, version: 1, counts }));
    } else if (kind === 0x53) {
      parts.push(json(kind, (value as unknown as Record<string, unknown>[]).map(withoutFormat3Fields)));
    } else if (kind === 0x45) {
      const end: Record<string, unknown> = { ...value, sha256: createHash('sha256').update(Buffer.concat(parts)).digest('hex') };
      delete end.pins;
      delete end.lines;
      parts.push(json(kind, end));
    } else {
      parts.push(json(kind, value));
    }
  }
  return Buffer.concat(parts);
}

/** A snapshot record's entry as format 1 and 2 wrote it: no `made`, no `machine`, no `fromVersion`. */
function withoutFormat3Fields(snapshot: Record<string, unknown>): Record<string, unknown> {
  const { made: _made, machine: _machine, ...rest } = snapshot;
  const versions = (rest.versions as Record<string, unknown>[]).map(({ fromVersion: _from, ...v }) => v);
  return { ...rest, versions };
}
