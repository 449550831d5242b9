import { caseClass } from './caseFold.js';
import { EmptyIterations } from './emptyIterations.js';
import { isWordUnit, TOO_LARGE, unsupported, type CharTest, type Node } from './regexSyntax.js';

// A regular expression run as an automaton (a Pike VM, as RE2 does): every way the pattern can be
// at one place in the text advances together, one step per character, so a text costs at most
// (its length x the program's size) steps and memory the program's size, whatever the pattern.
// JavaScript's backtracking engine takes exponential time on `(a|aa)*b` over a line of `a`s.
// The ways are kept in the order the backtracking engine would try them, so the match found is
// the one JavaScript finds (leftmost, then its preferred length), which the viewer highlights.

const CHAR = 0;
const SPLIT = 1;
const JMP = 2;
const ASSERT = 3;
const MATCH = 4;

/** Above this many instructions a pattern (a large counted repeat, mostly) is refused. */
export const MAX_PROGRAM = 20_000;
/**
 * The instructions a text may cost per character it has. Linear is not enough when the factor is
 * the program's size: `[ab]{0,2400}c` keeps thousands of ways open at every character of a line of
 * `a`s (9,400 per character: minutes per MiB). Ordinary patterns visit under 20 per character,
 * `(a|aa)*` twenty times over `a`s 242, `[ab]{0,100}c` 402. A text that costs more is refused,
 * whatever its length: steps, not time, so the answer is the same on any machine; at most about
 * 10-20 s per MiB of text on this project's machines.
 */
export const STEPS_PER_UNIT = 500;

export interface Program {
  op: Int32Array;
  /** CHAR: the test's index; SPLIT, JMP: the target (SPLIT's preferred one); ASSERT: the kind. */
  x: Int32Array;
  /** SPLIT: the other target. */
  y: Int32Array;
  tests: CharTest[];
  /** The pattern as typed, for the message that refuses it. */
  query: string;
}

const ASSERTS = ['^', '$', 'b', 'B'] as const;

export function compileProgram(tree: Node, ignoreCase: boolean, query: string): Program {
  const op: number[] = [];
  const x: number[] = [];
  const y: number[] = [];
  const tests: CharTest[] = [];
  // A counted repeat visits its body's nodes once per copy: one test per node, so that a step
  // asks each distinct test once per character (find's answer cache), not once per copy.
  const testOf = new Map<Node, number>();
  const iterations = new EmptyIterations(query);
  const emit = (code: number, a = 0, b = 0): number => {
    if (op.length >= MAX_PROGRAM) throw unsupported(TOO_LARGE, query);
    op.push(code);
    x.push(a);
    y.push(b);
    return op.length - 1;
  };
  const visit = (node: Node): void => {
    switch (node.kind) {
      case 'empty':
        return;
      case 'char': {
        let test = testOf.get(node);
        if (test === undefined) testOf.set(node, (test = tests.push(charTest(node, ignoreCase)) - 1));
        emit(CHAR, test);
        return;
      }
      case 'assert':
        emit(ASSERT, ASSERTS.indexOf(node.what));
        return;
      case 'concat':
        for (const item of node.items) visit(item);
        return;
      case 'alt': {
        const jumps: number[] = [];
        node.options.forEach((option, k) => {
          const last = k === node.options.length - 1;
          const split = last ? -1 : emit(SPLIT);
          if (split >= 0) x[split] = op.length;
          visit(option);
          if (!last) {
            jumps.push(emit(JMP));
            y[split] = op.length;
          }
        });
        for (const jump of jumps) x[jump] = op.length;
        return;
      }
      case 'repeat':
        visit(iterations.expand(node));
        return;
      case 'loop': {
        if (node.max === Infinity) {
          const split = emit(SPLIT);
          visit(node.body);
          emit(JMP, split);
          prefer(split, split + 1, op.length, node.greedy);
          return;
        }
        const splits: number[] = [];
        for (let k = 0; k < node.max; k++) {
          splits.push(emit(SPLIT));
          visit(node.body);
        }
        for (const split of splits) prefer(split, split + 1, op.length, node.greedy);
        return;
      }
    }
  };
  const prefer = (split: number, body: number, out: number, greedy: boolean): void => {
    x[split] = greedy ? body : out;
    y[split] = greedy ? out : body;
  };
  visit(tree);
  emit(MATCH);
  return { op: Int32Array.from(op), x: Int32Array.from(x), y: Int32Array.from(y), tests, query };
}

function charTest(node: Extract<Node, { kind: 'char' }>, ignoreCase: boolean): CharTest {
  if (ignoreCase && node.unit !== undefined) {
    // One character: the few units equal to it under `i`.
    const units = caseClass(node.unit);
    return units.length === 1 ? node.test : (unit) => units.includes(unit);
  }
  const member = ignoreCase ? foldedTest(node.test) : node.test;
  return node.negated ? (unit) => !member(unit) : member;
}

/** A class test that ignores case as the `i` flag does: true when any unit equal under `i` is a member. */
function foldedTest(test: CharTest): CharTest {
  // Answers kept per unit met (a text meets few of the 65,536).
  const known = new Map<number, boolean>();
  return (unit) => {
    let answer = known.get(unit);
    if (answer === undefined) known.set(unit, (answer = caseClass(unit).some(test)));
    return answer;
  };
}

/** The places the program can be at one position of the text, in the order they are tried. */
class Ways {
  readonly pcs: Int32Array;
  readonly starts: Int32Array;
  readonly seen: Int32Array;
  size = 0;
  generation = 0;

  constructor(length: number) {
    this.pcs = new Int32Array(length);
    this.starts = new Int32Array(length);
    this.seen = new Int32Array(length);
  }

  clear(): void {
    this.size = 0;
    // A search clears once per character it reads: past what an Int32Array holds, start the marks again.
    if (++this.generation === 0x7fffffff) {
      this.seen.fill(0);
      this.generation = 1;
    }
  }
}

export class LinearMatcher {
  #current: Ways;
  #next: Ways;
  readonly #stack: Int32Array;
  /** Whether a match can start with a unit (0: not asked yet, 1: can, 2: cannot); null when a match can be empty. */
  readonly #starts: Uint8Array | null;
  readonly #firstTests: CharTest[];
  /** Each test's answer for the character of step `#askedAt[test]` (1 or 2; 0: not asked). */
  readonly #answer: Uint8Array;
  readonly #askedAt: Int32Array;
  #step = 0;

  constructor(private readonly program: Program) {
    const length = program.op.length;
    this.#current = new Ways(length);
    this.#next = new Ways(length);
    // Each instruction enters a closure at most once, each pushing at most two.
    this.#stack = new Int32Array(length * 2 + 2);
    const first = firstInstructions(program);
    this.#firstTests = first.filter((pc) => program.op[pc] === CHAR).map((pc) => program.tests[program.x[pc]!]!);
    this.#starts = first.some((pc) => program.op[pc] === MATCH) ? null : new Uint8Array(0x10000);
    this.#answer = new Uint8Array(program.tests.length);
    this.#askedAt = new Int32Array(program.tests.length);
  }

  /** Whether test `t` takes `unit`, asked once per step however many ways wait on it. */
  #takes(t: number, unit: number): boolean {
    if (this.#askedAt[t] !== this.#step) {
      this.#askedAt[t] = this.#step;
      this.#answer[t] = this.program.tests[t]!(unit) ? 1 : 2;
    }
    return this.#answer[t] === 1;
  }

  /** A new character: every test's answer is asked again. */
  #nextStep(): void {
    if (++this.#step === 0x7fffffff) {
      this.#askedAt.fill(0);
      this.#step = 1;
    }
  }

  /** Whether a match can start with this unit: text no match can start with is skipped one test per unit. */
  #canStart(unit: number): boolean {
    const starts = this.#starts!;
    let answer = starts[unit]!;
    if (answer === 0) starts[unit] = answer = this.#firstTests.some((test) => test(unit)) ? 1 : 2;
    return answer === 1;
  }

  /** The text the step budget is counted for, and the steps it has left. */
  #budgetText: string | undefined;
  #stepsLeft = 0;

  /**
   * The first match at or after `from`: its start and end, or null. Throws BAD_REQUEST when the
   * text costs more than STEPS_PER_UNIT per character (counted over every find in the same text).
   */
  find(text: string, from: number): { index: number; end: number } | null {
    if (text !== this.#budgetText) {
      this.#budgetText = text;
      this.#stepsLeft = STEPS_PER_UNIT * (text.length + 1);
    }
    const { op, x } = this.program;
    const n = text.length;
    let start = -1;
    let end = -1;
    this.#current.clear();
    for (let pos = from; pos <= n; pos++) {
      if (start < 0 && this.#current.size === 0 && this.#starts) {
        const at = pos;
        while (pos < n && !this.#canStart(text.charCodeAt(pos))) pos++;
        if (pos === n) break;
        // The marks of the closure made at `at` (ways that failed there) say nothing about `pos`.
        if (pos !== at) this.#current.clear();
      }
      // A match starting here is tried after every earlier start: leftmost wins.
      if (start < 0) this.#add(this.#current, 0, pos, text, pos);
      const current = this.#current;
      const next = this.#next;
      next.clear();
      const unit = pos < n ? text.charCodeAt(pos) : -1;
      this.#nextStep();
      for (let k = 0; k < current.size; k++) {
        const pc = current.pcs[k]!;
        if (op[pc] === MATCH) {
          // Ways after this one are less preferred: dropped.
          start = current.starts[k]!;
          end = pos;
          break;
        }
        if (unit >= 0 && this.#takes(x[pc]!, unit)) this.#add(next, pc + 1, current.starts[k]!, text, pos + 1);
      }
      this.#current = next;
      this.#next = current;
      if (this.#stepsLeft < 0) throw unsupported('it keeps too many ways to match open at once, as a large counted repeat does', this.program.query);
      if (start >= 0 && next.size === 0) break;
    }
    return start < 0 ? null : { index: start, end };
  }

  /** Adds `pc` and everything it reaches without a character, in preference order. */
  #add(ways: Ways, pc0: number, start: number, text: string, pos: number): void {
    const { op, x, y } = this.program;
    const stack = this.#stack;
    let top = 0;
    stack[top++] = pc0;
    this.#stepsLeft -= 1;
    while (top > 0) {
      const pc = stack[--top]!;
      this.#stepsLeft--;
      if (ways.seen[pc] === ways.generation) continue;
      ways.seen[pc] = ways.generation;
      switch (op[pc]) {
        case JMP:
          stack[top++] = x[pc]!;
          break;
        case SPLIT:
          stack[top++] = y[pc]!;
          stack[top++] = x[pc]!;
          break;
        case ASSERT:
          if (holds(x[pc]!, text, pos)) stack[top++] = pc + 1;
          break;
        default:
          ways.pcs[ways.size] = pc;
          ways.starts[ways.size] = start;
          ways.size++;
      }
    }
  }
}

/** The instructions a match can begin at, taking every assertion as holding (so never too few). */
function firstInstructions(program: Program): number[] {
  const seen = new Set<number>();
  const out: number[] = [];
  const stack = [0];
  while (stack.length > 0) {
    const pc = stack.pop()!;
    if (seen.has(pc)) continue;
    seen.add(pc);
    const op = program.op[pc];
    if (op === JMP) stack.push(program.x[pc]!);
    else if (op === SPLIT) stack.push(program.y[pc]!, program.x[pc]!);
    else if (op === ASSERT) stack.push(pc + 1);
    else out.push(pc);
  }
  return out;
}

function holds(kind: number, text: string, pos: number): boolean {
  const before = pos > 0 ? text.charCodeAt(pos - 1) : -1;
  const after = pos < text.length ? text.charCodeAt(pos) : -1;
  switch (kind) {
    case 0:
      return before === -1 || isLineEnd(before);
    case 1:
      return after === -1 || isLineEnd(after);
    default: {
      const boundary = (before !== -1 && isWordUnit(before)) !== (after !== -1 && isWordUnit(after));
      return kind === 2 ? boundary : !boundary;
    }
  }
}

function isLineEnd(unit: number): boolean {
  return unit === 10 || unit === 13 || unit === 0x2028 || unit === 0x2029;
}
