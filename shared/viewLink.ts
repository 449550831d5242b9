// The viewer's deep link: the address fragment naming a project, one of its files and a line
// (#project=ID&path=src%2Fa.ts&line=12). `hindsight view` writes it, the viewer reads it at its
// start (renderer/features/viewLocation.ts). Pure string work.

import { readParams, writeParams } from './queryParams.js';

export interface ViewLink {
  projectId: string;
  /** A project path ('/'-separated, relative to the project folder), or null for the project alone. */
  path: string | null;
  /** 1-based; null for none. */
  line: number | null;
}

export function viewLink({ projectId, path, line }: ViewLink): string {
  const pairs: [string, string][] = [['project', projectId]];
  if (path !== null) pairs.push(['path', path]);
  if (path !== null && line !== null) pairs.push(['line', String(line)]);
  return `#${writeParams(pairs)}`;
}

/** The file and line a fragment names; a line that is not a whole number from 1 is dropped. */
export function readLinkedFile(hash: string): { path: string | null; line: number | null } {
  const pairs = readParams(hash.replace(/^#/, '')) ?? [];
  const get = (name: string): string | null => pairs.find(([n]) => n === name)?.[1] ?? null;
  const path = get('path');
  if (path === null || path === '') return { path: null, line: null };
  return { path, line: lineNumber(get('line')) };
}

/** A line as text: a whole number from 1 (at most 2^31 - 1), else null. */
export function lineNumber(text: string | null): number | null {
  if (text === null || !/^[1-9]\d{0,9}$/.test(text)) return null;
  const line = Number(text);
  return line <= 2 ** 31 - 1 ? line : null;
}

/** Where a 1-based line lies in a text (its line break left out), or null past the last line. */
export function lineSpan(text: string, line: number): { from: number; to: number } | null {
  let from = 0;
  for (let n = 1; n < line; n++) {
    const next = text.indexOf('\n', from);
    if (next === -1) return null;
    from = next + 1;
  }
  const end = text.indexOf('\n', from);
  const to = end === -1 ? text.length : end > from && text[end - 1] === '\r' ? end - 1 : end;
  return { from, to };
}
