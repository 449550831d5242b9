import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SearchReader } from '../../../electron/history/db/searchReader.js';
import { searchHistory, type SearchRequest } from '../../../electron/history/search/searchHistory.js';
import { historyDbPath } from '../../../electron/history/store/storeLayout.js';
import type { SearchResult } from '../../../shared/contract/values.js';
import { findMatches, queryPattern } from '../../../shared/textSearch.js';
import { seededRandom } from '../../bench/fixtures/seededRandom.js';
import { sha256 } from '../../helpers/writeTree.js';
import { regexCases } from '../../shared/regex/regexCases.js';
import { notRacy, projectWithBaseline } from '../versions/versionsHelpers.js';

// A regex search end to end against JavaScript's RegExp applied to every version's text: a
// history of a few files with many versions (lines ended by \n, \r\n and \r, words with case
// pairs), the search index built, then generated patterns, half with 3 characters or more of
// plain text so the trigram prefilter (search/regexLiteral.ts) narrows them, searched with and
// without case. Every hit, its versions and its matches' lines, columns and lengths must be the
// reference's, the range the viewer marks in each preview the match's text (to its line's end),
// and no version holding a match may be missing.

const SEED = 4141;
const FILES = ['src/app.ts', 'notes.md', 'data.csv'];
const VERSIONS = 12;
const WORDS = ['alpha', 'Alpha', 'beta', 'x = + 12', 'foo', 'café', 'CAFÉ', 'Straße', 'STRASSE', 'total', 'value42', 'K1', '_id', 'line'];
const ENDS = ['\n', '\r\n', '\r'];
const MAX_SIZE = 1 << 20;

/** Patterns that carry a word (so the index narrows them), and generated ones of every construct. */
function patterns(): string[] {
  const random = seededRandom(SEED);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const word = () => pick(WORDS).replace(/[+]/g, '\\+');
  const shapes = [
    () => `${word()}$`,
    () => `^${word()}`,
    () => `\\b${word()}s?\\b`,
    () => `${word()}.*?${word()}`,
    () => `(?:${word()}|${word()})\\d*`,
    () => `${word()}(?:^)?[^\\n]{0,3}`,
    () => `[-+]?\\b\\d+`,
    () => `${word()}(?:|a)?`,
  ];
  const out: string[] = [];
  for (let k = 0; k < 40; k++) out.push(pick(shapes)());
  for (const { pattern } of regexCases(SEED, 40, 1)) out.push(pattern);
  return out;
}

function text(random: () => number): string {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  let out = '';
  const lines = 1 + Math.floor(random() * 6);
  for (let l = 0; l < lines; l++) {
    const words = Math.floor(random() * 5);
    for (let w = 0; w < words; w++) out += (w ? ' ' : '') + pick(WORDS);
    out += pick(ENDS);
  }
  return out;
}

/** The hits RegExp gives: per path and content, the versions holding it and each match's line and column. */
function reference(texts: Map<string, Map<string, string>>, versions: Map<string, Map<number, string>>, request: SearchRequest) {
  const out = new Map<string, { versions: number[]; matches: [number, number, number, string][] }>();
  for (const [path, byHash] of texts) {
    for (const [hash, content] of byHash) {
      const matches = findMatches(content, queryPattern(request), 100);
      if (matches.length === 0) continue;
      const holding = [...versions.get(path)!].filter(([, h]) => h === hash).map(([id]) => id);
      // The viewer marks preview[previewFrom, previewTo): the match, to the end of its line.
      const marks = matches.map((m) => {
        const lineEnd = content.slice(m.offset).search(/\r?\n|\r$|$/);
        return content.slice(m.offset, m.offset + Math.min(m.length, lineEnd));
      });
      out.set(`${path} ${hash}`, { versions: holding.sort((a, b) => a - b), matches: matches.map((m, k) => [m.line, m.column, m.length, marks[k]!]) });
    }
  }
  return out;
}

function answered(result: SearchResult, hashOf: Map<number, string>) {
  const out = new Map<string, { versions: number[]; matches: [number, number, number, string][] }>();
  for (const hit of result.results) {
    const hash = hashOf.get(hit.versions[0]!.versionId)!;
    out.set(`${hit.path} ${hash}`, {
      versions: hit.versions.map((v) => v.versionId).sort((a, b) => a - b),
      matches: hit.matches.map((m) => [m.line, m.column, m.length, m.preview.slice(m.previewFrom, m.previewTo)]),
    });
  }
  return out;
}

describe('a regex search answers what RegExp finds in every version', () => {
  it('on a history of many versions, through the trigram index, with and without case', async () => {
    const random = seededRandom(SEED);
    // Every text written, by its hash (the versions name their content by it).
    const byHash = new Map<string, string>();
    const written = (content: string) => (byHash.set(sha256(content), content), content);
    const first = Object.fromEntries(FILES.map((f) => [f, written(text(random))]));
    const project = await projectWithBaseline(first);
    const { engine, projectId, root, store } = project;
    for (let v = 1; v < VERSIONS; v++) {
      for (const file of FILES) if (random() < 0.7) writeFileSync(join(root, file), written(text(random)));
      notRacy(store);
      await engine.rescan(projectId);
    }
    await engine.buildSearchIndex(projectId);

    // Every version's text: path -> hash -> text, and path -> versionId -> hash.
    const texts = new Map<string, Map<string, string>>();
    const versions = new Map<string, Map<number, string>>();
    const hashOf = new Map<number, string>();
    for (const path of FILES) {
      const listed = engine.versions(projectId, path, { limit: 1000 });
      versions.set(path, new Map(listed.map((v) => [v.versionId, v.hash!])));
      texts.set(path, new Map(listed.map((v) => [v.hash!, byHash.get(v.hash!)!])));
      for (const v of listed) hashOf.set(v.versionId, v.hash!);
    }
    expect(hashOf.size).toBeGreaterThan(FILES.length * 6);

    const reader = new SearchReader(historyDbPath(store.storeDir));
    const source = { index: reader, blobs: store.blobs };
    let compared = 0;
    let narrowed = 0;
    let hits = 0;
    try {
      for (const query of patterns()) {
        for (const caseSensitive of [true, false]) {
          const request: SearchRequest = { query, regex: true, caseSensitive, limit: 10_000 };
          const result = searchHistory(source, request, MAX_SIZE);
          if (result.indexed) narrowed++;
          hits += result.results.length;
          expect(answered(result, hashOf), `${query} (${caseSensitive ? 'gm' : 'gim'})`).toEqual(reference(texts, versions, request));
          compared++;
        }
      }
    } finally {
      reader.close();
    }
    expect(compared).toBe(160);
    // The prefilter took part, and the answers were not all empty.
    expect(narrowed).toBeGreaterThan(40);
    expect(hits).toBeGreaterThan(200);
  });

  it('finds [-+]?\\b\\d+ in a file holding "x = + 12" (the search command, on its own thread)', async () => {
    const { engine, projectId } = await projectWithBaseline({ 'calc.py': 'x = + 12\n' });
    const result = await engine.search(projectId, { query: '[-+]?\\b\\d+', regex: true, caseSensitive: false, limit: 10 });
    expect(result.results.map((h) => [h.path, h.matches.map((m) => [m.line, m.column])])).toEqual([['calc.py', [[1, 7]]]]);
  });
});
