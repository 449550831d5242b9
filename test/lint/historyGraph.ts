import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

// The import graph of a source folder as the TypeScript compiler reads it: `import`, `import type`,
// `export ... from` and `import()` all count (ts.preProcessFile), which the lint's
// no-restricted-imports does not all see. Relative specifiers are resolved (`.js` names the `.ts`
// file it is built from); what lies outside the folder (shared/, node, packages) is left out.
// Files are named by their path under the folder with '/' separators; a unit is a file's first
// folder ('db'), or the file itself when it lies at the top ('historyEngine.ts').

export interface ImportGraph {
  files: string[];
  /** file -> the files of the folder it imports */
  imports: Map<string, Set<string>>;
}

function sourceFiles(root: string, dir = root): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) for (const file of sourceFiles(root, path)) found.push(file);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) found.push(relative(root, path).split(sep).join('/'));
  }
  return found;
}

export function importGraph(root: string): ImportGraph {
  const files = sourceFiles(root).sort();
  const imports = new Map<string, Set<string>>();
  for (const file of files) {
    const targets = new Set<string>();
    const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = relative(root, resolve(root, dirname(file), fileName.replace(/\.js$/, '.ts')));
      if (target.startsWith('..')) continue;
      targets.add(target.split(sep).join('/'));
    }
    imports.set(file, targets);
  }
  return { files, imports };
}

export function unitOf(file: string): string {
  const slash = file.indexOf('/');
  return slash < 0 ? file : file.slice(0, slash);
}

/** unit -> unit -> the file imports that make the edge ("db/a.ts -> store/b.ts"), between different units. */
export function unitEdges(graph: ImportGraph): Map<string, Map<string, string[]>> {
  const edges = new Map<string, Map<string, string[]>>();
  for (const [file, targets] of graph.imports) {
    for (const target of targets) {
      const [from, to] = [unitOf(file), unitOf(target)];
      if (from === to) continue;
      const out = edges.get(from) ?? edges.set(from, new Map()).get(from)!;
      (out.get(to) ?? out.set(to, []).get(to)!).push(`${file} -> ${target}`);
    }
  }
  return edges;
}

/** The strongly connected groups of more than one node (Tarjan), each sorted: every cycle lies in one. */
export function cycles(nodes: Iterable<string>, next: (node: string) => Iterable<string>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const other of next(node)) {
      if (!index.has(other)) {
        visit(other);
        low.set(node, Math.min(low.get(node)!, low.get(other)!));
      } else if (onStack.has(other)) low.set(node, Math.min(low.get(node)!, index.get(other)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1) groups.push(group.sort());
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return groups;
}

/** A cycle between units, told with one file import for each edge inside it. */
export function describeUnitCycle(group: string[], edges: Map<string, Map<string, string[]>>): string {
  const members = new Set(group);
  const inside: string[] = [];
  for (const from of group)
    for (const [to, pairs] of edges.get(from) ?? [])
      if (members.has(to)) inside.push(`${from} -> ${to} (${pairs[0]}${pairs.length > 1 ? ` and ${pairs.length - 1} more` : ''})`);
  return `${group.join(', ')}: ${inside.join('; ')}`;
}
