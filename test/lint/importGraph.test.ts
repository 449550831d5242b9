import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cycles, describeUnitCycle, importGraph, unitEdges, unitOf } from './historyGraph.js';
import { tempDir } from '../helpers/tempDirs.js';

// Imports only go down in electron/history/, checked on the import graph the TypeScript compiler
// reads (type imports, `export ... from` and `import()` counted, which the lint does not all see):
// no cycle between files, nor between folders and top-level modules; a folder imports only what
// its HISTORY_IMPORTS entry (eslint.config.js) names, and that entry is its README's Imports line;
// the top-level modules lie below every folder but for the engine, its options and the entry file.

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const HISTORY = join(REPO, 'electron/history');

interface HistoryTable {
  HISTORY_FOLDERS: string[];
  HISTORY_IMPORTS: Record<string, string[]>;
  HISTORY_TOP: string[];
}
const table = (await import(pathToFileURL(join(REPO, 'eslint.config.js')).href)) as HistoryTable;
const graph = importGraph(HISTORY);
const edges = unitEdges(graph);
const folders = readdirSync(HISTORY, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

/** The name a HISTORY_IMPORTS entry gives a file: its path with `.js`, as an import spells it. */
const asImported = (file: string) => file.replace(/\.ts$/, '.js');

/** Whether `allowed` (a HISTORY_IMPORTS entry) lets a folder import `target`. */
function allows(allowed: readonly string[], target: string): boolean {
  const unit = unitOf(target);
  return allowed.includes(unit === target ? asImported(target) : unit) || allowed.includes(asImported(target));
}

/** The electron/history/ parts a README's Imports line names, in backticks (none: only shared/, node and the top-level modules). */
function readmeImports(folder: string): string[] | undefined {
  const readme = join(HISTORY, folder, 'README.md');
  if (!existsSync(readme)) return undefined;
  const line = readFileSync(readme, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('Imports:'));
  return line === undefined ? undefined : [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
}

describe('the import graph of electron/history/', () => {
  it('has no cycle between files', () => {
    const found = cycles(graph.files, (file) => graph.imports.get(file) ?? []);
    expect(found.map((group) => group.join(', '))).toEqual([]);
  });

  it('has no cycle between folders and top-level modules', () => {
    const units = new Set(graph.files.map(unitOf));
    const found = cycles(units, (unit) => edges.get(unit)?.keys() ?? []);
    expect(found.map((group) => describeUnitCycle(group, edges))).toEqual([]);
  });

  it('imports from another folder only what HISTORY_IMPORTS names, type imports and import() included', () => {
    const outside: string[] = [];
    for (const [file, targets] of graph.imports) {
      const folder = unitOf(file);
      if (folder === file) continue;
      for (const target of targets) {
        const unit = unitOf(target);
        const needsListing = unit !== target || table.HISTORY_TOP.includes(asImported(target));
        if (unit !== folder && needsListing && !allows(table.HISTORY_IMPORTS[folder] ?? [], target)) outside.push(`${file} -> ${target}`);
      }
    }
    expect(outside).toEqual([]);
  });

  it('keeps the top-level modules below the folders, but for the engine, its options and the entry file', () => {
    const leaves = new Set(folders.filter((f) => table.HISTORY_IMPORTS[f]?.length === 0));
    const above: string[] = [];
    for (const [file, targets] of graph.imports) {
      if (unitOf(file) !== file || table.HISTORY_TOP.includes(asImported(file))) continue;
      for (const target of targets) {
        const unit = unitOf(target);
        // A folder that imports no other folder lies below every top-level module that imports it.
        if (unit !== target ? !leaves.has(unit) : table.HISTORY_TOP.includes(asImported(target))) above.push(`${file} -> ${target}`);
      }
    }
    expect(above).toEqual([]);
  });

  it('lists every folder in HISTORY_FOLDERS and HISTORY_IMPORTS, each with a README whose Imports line is its entry', () => {
    expect([...table.HISTORY_FOLDERS].sort()).toEqual(folders);
    expect(Object.keys(table.HISTORY_IMPORTS).sort()).toEqual(folders);
    for (const folder of folders) {
      const named = readmeImports(folder);
      expect(named, `electron/history/${folder}/README.md with an "Imports:" line`).toBeDefined();
      expect([...named!].sort(), `electron/history/${folder}/README.md's Imports line`).toEqual([...table.HISTORY_IMPORTS[folder]!].sort());
    }
  });

  it('allows no cycle in HISTORY_IMPORTS itself: no two folders may import each other', () => {
    const allowed = (folder: string) => (table.HISTORY_IMPORTS[folder] ?? []).map((entry) => entry.split('/')[0]!).filter((f) => folders.includes(f));
    expect(cycles(folders, allowed)).toEqual([]);
  });
});

describe('the import graph', () => {
  it('sees type imports, export-from and import(), and names the members of a cycle', () => {
    const root = tempDir('import-graph-');
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    write('low/a.ts', "import type { B } from '../high/b.js';\nexport type A = B;\n");
    write('high/b.ts', "export type B = number;\nexport const c = () => import('./c.js');\n");
    write('high/c.ts', "export { d } from '../top.js';\n");
    write('top.ts', "import type { A } from './low/a.js';\nexport const d = 1 as unknown as A;\n");
    const planted = importGraph(root);
    expect(cycles(planted.files, (f) => planted.imports.get(f) ?? [])).toEqual([['high/b.ts', 'high/c.ts', 'low/a.ts', 'top.ts']]);
    const plantedEdges = unitEdges(planted);
    const [group] = cycles(new Set(planted.files.map(unitOf)), (u) => plantedEdges.get(u)?.keys() ?? []);
    expect(describeUnitCycle(group!, plantedEdges)).toBe(
      'high, low, top.ts: high -> top.ts (high/c.ts -> top.ts); low -> high (low/a.ts -> high/b.ts); top.ts -> low (top.ts -> low/a.ts)',
    );
  });
});
