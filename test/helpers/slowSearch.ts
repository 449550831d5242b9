import { readFileSync } from 'node:fs';
import { tempDir } from './tempDirs.js';
import { writeTree } from './writeTree.js';

// A search that is slow but finite, to catch a search in the middle: a few files of about 1 MiB
// of `a`s (each its own content) and a regex of many alternatives, which the linear-time matcher
// runs over every character with about a hundred instructions alive (seconds of work per file).

export const SLOW_FILES = 4;

export function slowProject(): string {
  const root = tempDir();
  const spec: Record<string, string> = {};
  for (let i = 0; i < SLOW_FILES; i++) spec[`slow/f${i}.txt`] = `${'a'.repeat(1000 * 1024)}\n${i}\n`;
  writeTree(root, spec);
  return root;
}

export const SLOW_PATTERN = `${'(a|aa)*'.repeat(20)}b`;

/** The counters a process wrote to its HINDSIGHT_TRACE file (the last line: one per run). */
export function lastTrace(file: string): Record<string, number> {
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  return JSON.parse(lines[lines.length - 1]!) as Record<string, number>;
}
