import { TOO_LARGE, unsupported, type Node } from './regexSyntax.js';

// JavaScript's rule for a repeat whose body can match nothing (RepeatMatcher in the spec): an
// iteration past the minimum that consumes no character fails, and the backtracking engine goes
// on to the body's next way. `(?:|a)?` over `a` matches `a`, `(?:^)?a` matches the `a` of `ba`.
// An automaton has no "where this iteration began" to compare with, so the rule is applied to
// the tree instead: the optional iterations run `nonEmpty(body)`, the body's ways that consume a
// character, in the order the body tries them, and the ways that consume nothing are dropped.

/** A run of consecutive ways of a node, all consuming a character (`empty` false) or none. */
interface Run {
  empty: boolean;
  node: Node;
}

const EMPTY: Node = { kind: 'empty' };

/** Above this many runs made for one pattern it is refused, as a program too large is. */
const MAX_RUNS = 20_000;

export class EmptyIterations {
  readonly #nonEmpty = new Map<Node, Node | null>();
  readonly #runs = new Map<Node, Run[]>();
  readonly #tails = new Map<Node[], Run[][]>();
  #made = 0;

  constructor(private readonly query: string) {}

  readonly #expanded = new Map<Node, Node>();

  /** The repeat as the compiler runs it: `min` bodies, then optional iterations that each consume a character. */
  expand(node: Extract<Node, { kind: 'repeat' }>): Node {
    let known = this.#expanded.get(node);
    if (!known) this.#expanded.set(node, (known = this.#expansion(node)));
    return known;
  }

  #expansion(node: Extract<Node, { kind: 'repeat' }>): Node {
    const items: Node[] = [];
    for (let k = 0; k < node.min; k++) items.push(node.body);
    const body = node.max > node.min ? this.nonEmpty(node.body) : null;
    if (body) items.push({ kind: 'loop', body, max: node.max - node.min, greedy: node.greedy });
    return items.length === 1 ? items[0]! : { kind: 'concat', items };
  }

  /** The node's ways that consume a character, in its order; null when it has none. */
  nonEmpty(node: Node): Node | null {
    let known = this.#nonEmpty.get(node);
    if (known === undefined) {
      const taken = this.runs(node).filter((run) => !run.empty);
      known = taken.length === 0 ? null : taken.length === 1 ? taken[0]!.node : { kind: 'alt', options: taken.map((run) => run.node) };
      this.#nonEmpty.set(node, known);
    }
    return known;
  }

  runs(node: Node): Run[] {
    let known = this.#runs.get(node);
    if (!known) {
      known = this.#runsOf(node);
      this.#runs.set(node, known);
    }
    return known;
  }

  #runsOf(node: Node): Run[] {
    switch (node.kind) {
      case 'empty':
      case 'assert':
        return [{ empty: true, node }];
      case 'char':
        return [{ empty: false, node }];
      case 'alt':
        return this.#merged(node.options.flatMap((option) => this.runs(option)));
      case 'concat':
        return this.#tail(node.items, 0);
      case 'repeat':
        return this.runs(this.expand(node));
      case 'loop': {
        if (node.max === 0) return [{ empty: true, node: EMPTY }];
        const more: Node = node.max === 1 ? node.body : { kind: 'concat', items: [node.body, node.max === Infinity ? node : { ...node, max: node.max - 1 }] };
        const once = { empty: false, node: more };
        return node.greedy ? [once, { empty: true, node: EMPTY }] : [{ empty: true, node: EMPTY }, once];
      }
    }
  }

  /** The runs of items[from..]: an empty run of the first item followed by each run of the rest. */
  #tail(items: Node[], from: number): Run[] {
    let byStart = this.#tails.get(items);
    if (!byStart) this.#tails.set(items, (byStart = []));
    const known = byStart[from];
    if (known) return known;
    let out: Run[];
    if (from === items.length) out = [{ empty: true, node: EMPTY }];
    else {
      const rest: Node = from + 1 === items.length ? EMPTY : { kind: 'concat', items: items.slice(from + 1) };
      const runs: Run[] = [];
      for (const first of this.runs(items[from]!)) {
        if (!first.empty) runs.push({ empty: false, node: joined(first.node, rest) });
        else for (const next of this.#tail(items, from + 1)) runs.push({ empty: next.empty, node: joined(first.node, next.node) });
      }
      out = this.#merged(runs);
    }
    byStart[from] = out;
    return out;
  }

  /** Neighbouring runs of the same kind as one alternation (fewer runs to multiply). */
  #merged(runs: Run[]): Run[] {
    this.#made += runs.length;
    if (this.#made > MAX_RUNS) throw unsupported(TOO_LARGE, this.query);
    const out: Run[] = [];
    for (const run of runs) {
      const last = out[out.length - 1];
      if (last && last.empty === run.empty) out[out.length - 1] = { empty: run.empty, node: { kind: 'alt', options: [last.node, run.node] } };
      else out.push(run);
    }
    return out;
  }
}

function joined(a: Node, b: Node): Node {
  if (a.kind === 'empty') return b;
  if (b.kind === 'empty') return a;
  return { kind: 'concat', items: [a, b] };
}
