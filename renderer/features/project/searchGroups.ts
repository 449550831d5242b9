import type { SearchHit } from '../../../shared/contract.js';

// Search results as the Search tab lists them: one group per file, and inside it one row per
// distinct set of matched lines. The engine answers one hit per file content, so a file edited
// fifty times away from the matched line answers fifty hits that all show the same lines: they
// are folded into one row (the newest of them opens; its versions and dates are the sum).

export interface HitRow {
  /** The newest of the folded hits: the one a click opens. */
  hit: SearchHit;
  versions: number;
  firstSeen: number;
  lastSeen: number;
  stillPresent: boolean;
  /** How many contents (hits) the row stands for. */
  folded: number;
}

export interface FileGroup {
  path: string;
  rows: HitRow[];
  versions: number;
  firstSeen: number;
  lastSeen: number;
}

/** What a hit shows: its matched lines' text, one entry per line. */
function shownLines(hit: SearchHit): string {
  return hit.matches
    .map((m) => m.preview)
    .filter((p, i, all) => i === 0 || all[i - 1] !== p)
    .join('\n');
}

export function groupByFile(hits: readonly SearchHit[]): FileGroup[] {
  const groups = new Map<string, { group: FileGroup; rowOf: Map<string, HitRow> }>();
  for (const hit of hits) {
    let entry = groups.get(hit.path);
    if (!entry) {
      entry = { group: { path: hit.path, rows: [], versions: 0, firstSeen: hit.firstSeen, lastSeen: hit.lastSeen }, rowOf: new Map() };
      groups.set(hit.path, entry);
    }
    const { group, rowOf } = entry;
    group.versions += hit.versions.length;
    group.firstSeen = Math.min(group.firstSeen, hit.firstSeen);
    group.lastSeen = Math.max(group.lastSeen, hit.lastSeen);
    const key = shownLines(hit);
    const row = rowOf.get(key);
    if (!row) {
      const fresh = { hit, versions: hit.versions.length, firstSeen: hit.firstSeen, lastSeen: hit.lastSeen, stillPresent: hit.stillPresent, folded: 1 };
      rowOf.set(key, fresh);
      group.rows.push(fresh);
      continue;
    }
    if (hit.lastSeen > row.hit.lastSeen) row.hit = hit;
    row.versions += hit.versions.length;
    row.firstSeen = Math.min(row.firstSeen, hit.firstSeen);
    row.lastSeen = Math.max(row.lastSeen, hit.lastSeen);
    row.stillPresent ||= hit.stillPresent;
    row.folded += 1;
  }
  return [...groups.values()].map((e) => e.group);
}
