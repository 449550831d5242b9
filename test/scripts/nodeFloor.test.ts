import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { zstdCompressSync, zstdDecompressSync } from 'node:zlib';
import { NODE_MINIMUM } from '../../scripts/nodeRuntime.mjs';

// The floor is what the code needs, not a guess: every node:zlib export the sources import has the
// Node.js release it came in here, and the floor must be at least the newest of them. zstd came in
// 22.15, but its `dictionary` option (the deltas' codec) only works from 22.19: 22.15-22.18 accept it
// and silently ignore it, so a frame written against a dictionary on 22.19 could not be read there.

const checkout = fileURLToPath(new URL('../../', import.meta.url));
type Version = [number, number];

/** The Node.js release each node:zlib export the project may use first appeared in (22 line). */
const ZLIB_SINCE: Record<string, Version> = {
  constants: [0, 0],
  gzipSync: [0, 0],
  gunzipSync: [0, 0],
  inflateRawSync: [0, 0],
  brotliCompressSync: [11, 7],
  brotliDecompressSync: [11, 7],
  createZstdCompress: [22, 15],
  zstdCompressSync: [22, 15],
  zstdDecompressSync: [22, 15],
};
/** zstd's `dictionary` option: accepted from 22.15, honoured from 22.19. */
const ZSTD_DICTIONARY_SINCE: Version = [22, 19];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Every name imported from node:zlib anywhere in electron/ and shared/. */
function zlibImports(): Set<string> {
  const names = new Set<string>();
  for (const file of [...sourceFiles(join(checkout, 'electron')), ...sourceFiles(join(checkout, 'shared'))]) {
    for (const match of readFileSync(file, 'utf8').matchAll(/import\s*\{([^}]*)\}\s*from\s*'node:zlib'/g)) {
      for (const part of match[1]!.split(',')) names.add(part.trim().split(/\s+as\s+/)[0]!);
    }
  }
  names.delete('');
  return names;
}

const atLeast = (a: Version, b: Version): boolean => a[0] > b[0] || (a[0] === b[0] && a[1] >= b[1]);

describe('the Node.js floor', () => {
  it('is at least the release of every node:zlib export the sources import', () => {
    const imported = zlibImports();
    expect(imported.size).toBeGreaterThan(0);
    for (const name of imported) {
      const since = ZLIB_SINCE[name];
      expect(since, `node:zlib's ${name} has no known first release here: add it to ZLIB_SINCE`).toBeDefined();
      expect(atLeast(NODE_MINIMUM as Version, since!), `${name} needs Node ${since!.join('.')}`).toBe(true);
    }
  });

  it("is at least 22.19, where zstd's dictionary option first works", () => {
    expect(atLeast(NODE_MINIMUM as Version, ZSTD_DICTIONARY_SINCE)).toBe(true);
  });

  it('honours a zstd dictionary on this Node (a frame against its base is smaller and reads back)', () => {
    const base = Buffer.from(Array.from({ length: 400 }, (_, i) => `line ${i} of the base version\n`).join(''));
    const next = Buffer.concat([base, Buffer.from('one more line\n')]);
    const plain = zstdCompressSync(next);
    const delta = zstdCompressSync(next, { dictionary: base } as never);
    expect(delta.length).toBeLessThan(plain.length / 4);
    expect(zstdDecompressSync(delta, { dictionary: base } as never).equals(next)).toBe(true);
  });

  it("says the same in package.json's engines, and the Electron the app ships has a Node above it", () => {
    const pkg = JSON.parse(readFileSync(join(checkout, 'package.json'), 'utf8')) as {
      engines: { node: string };
      devDependencies: Record<string, string>;
    };
    expect(pkg.engines.node).toBe(`>=${NODE_MINIMUM.join('.')}.0`);
    // Electron 40 and later ship Node 24 (40.0.0: Node 24.11.1), above the 22 line's floor.
    const electronMajor = Number(/(\d+)/.exec(pkg.devDependencies.electron!)![1]);
    expect(electronMajor).toBeGreaterThanOrEqual(40);
  });
});
