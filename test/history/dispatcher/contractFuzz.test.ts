import { describe, expect, it, onTestFinished } from 'vitest';
import { existsSync } from 'node:fs';
import { CALL_NAMES, CALLS, type CallName } from '../../../shared/contract.js';
import { ERROR_CODES } from '../../../shared/errors.js';
import { HistoryEngine } from '../../../electron/history/historyEngine.js';
import { createDispatcher } from '../../../electron/history/dispatcher/dispatcher.js';
import { tempDir } from '../../helpers/tempDirs.js';
import { writeTree } from '../../helpers/writeTree.js';

// Random and hostile payloads against the real dispatcher and engine: every one answered, none
// thrown, every failure a typed error. Strings that name something on disk are defused first, so
// a fuzzed openProject never copies a real folder.

function mulberry32(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = ['a', 'b', '/', '.', '..', '\\', '\0', ' ', 'é', '😀', '%', ':', 'C:', '~', '\n', '*', '0', 'f'];

function randomValue(rand: () => number, depth = 0): unknown {
  const pick = Math.floor(rand() * (depth > 3 ? 6 : 9));
  switch (pick) {
    case 0:
      return null;
    case 1:
      return rand() < 0.5;
    case 2:
      return [0, -1, 1, 2 ** 53, -0, NaN, Infinity, 1.5, 2 ** 31, Math.floor(rand() * 1e6)][Math.floor(rand() * 10)];
    case 3:
    case 4: {
      let s = '';
      const n = Math.floor(rand() * 12);
      for (let i = 0; i < n; i++) s += ALPHABET[Math.floor(rand() * ALPHABET.length)];
      return existsSync(s) ? `fz-${s}` : s;
    }
    case 5:
      return 'f'.repeat(32 * (1 + Math.floor(rand() * 3)));
    case 6:
      return Array.from({ length: Math.floor(rand() * 4) }, () => randomValue(rand, depth + 1));
    default: {
      const keys = ['projectId', 'path', 'versionId', 'snapshotId', 'kind', 'maxBytes', 'label', 'operationId', '__proto__', 'constructor', 'x'];
      const o: Record<string, unknown> = {};
      for (let i = Math.floor(rand() * 4); i > 0; i--) {
        Object.defineProperty(o, keys[Math.floor(rand() * keys.length)]!, {
          value: randomValue(rand, depth + 1),
          enumerable: true,
          configurable: true,
          writable: true,
        });
      }
      return o;
    }
  }
}

function hostileValues(): unknown[] {
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  const deep: unknown[] = [];
  let cursor = deep;
  for (let i = 0; i < 50_000; i++) {
    const next: unknown[] = [];
    cursor.push(next);
    cursor = next;
  }
  const throwing = new Proxy(
    {},
    {
      get() {
        throw new Error('hostile get');
      },
      ownKeys() {
        throw new Error('hostile keys');
      },
      getOwnPropertyDescriptor() {
        throw new Error('hostile descriptor');
      },
      has() {
        throw new Error('hostile has');
      },
    },
  );
  const getter = Object.defineProperty({}, 'projectId', {
    enumerable: true,
    get() {
      throw new Error('hostile getter');
    },
  });
  return [
    undefined,
    null,
    0,
    'x'.repeat(10 * 1024 * 1024),
    10n,
    Symbol('s'),
    () => 1,
    new Date(),
    new Map([['projectId', 'a']]),
    new Uint8Array(8),
    Object.create(null),
    JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}'),
    cyclic,
    deep,
    throwing,
    getter,
    '../../etc/passwd',
    '/etc/passwd',
    'a/../../b',
    'C:\\Windows',
    'a\0b',
    '',
    -1,
    2 ** 64,
    NaN,
  ];
}

describe('the contract under random and hostile payloads', () => {
  it('answers every one with a result, never a crash, and every failure is typed', async () => {
    const root = tempDir();
    writeTree(root, { 'a.txt': 'alpha\n' });
    const engine = new HistoryEngine(tempDir('hindsight-data-'));
    const dispatcher = createDispatcher(engine, { watch: false });
    onTestFinished(async () => {
      await dispatcher.close();
      engine.close();
    });
    const opened = await dispatcher.handle({ kind: 'call', id: 1, call: 'openProject', args: { path: root } });
    expect(opened.result.ok).toBe(true);
    const projectId = (opened.result as { value: { projectId: string } }).value.projectId;

    const rand = mulberry32(20261202);
    const hostile = hostileValues();
    const messages: unknown[] = [...hostile];
    const valid: Record<string, unknown> = { projectId, path: 'a.txt', versionId: 1, snapshotId: 1, label: 'x', operationId: 'op' };
    for (let i = 0; i < 4000; i++) {
      const call = rand() < 0.9 ? CALL_NAMES[Math.floor(rand() * CALL_NAMES.length)]! : String(randomValue(rand));
      // Start from a plausible request, then break one field, add one, or replace the whole.
      const args: Record<string, unknown> = {};
      const shape = (CALLS[call as CallName]?.request as { shape?: Record<string, unknown> } | undefined)?.shape ?? valid;
      for (const key of Object.keys(shape)) if (key in valid && rand() < 0.85) args[key] = valid[key];
      const roll = rand();
      if (roll < 0.4) args[Object.keys(valid)[Math.floor(rand() * 6)]!] = randomValue(rand);
      else if (roll < 0.6) args[Object.keys(valid)[Math.floor(rand() * 6)]!] = hostile[Math.floor(rand() * hostile.length)];
      const body = roll > 0.9 ? randomValue(rand) : args;
      messages.push(rand() < 0.05 ? randomValue(rand) : { kind: 'call', id: i + 2, call, args: body });
    }
    for (const value of hostile) messages.push({ kind: 'call', id: 7, call: 'readVersion', args: value });
    for (const value of hostile) messages.push({ kind: 'call', id: 8, call: 'openProject', args: { path: value } });

    let crashes = 0;
    const codes = new Map<string, number>();
    let oks = 0;
    for (const message of messages) {
      try {
        const answer = await dispatcher.handle(message);
        expect(answer.kind).toBe('result');
        if (answer.result.ok) oks++;
        else {
          expect(ERROR_CODES).toContain(answer.result.error.code);
          expect(typeof answer.result.error.message).toBe('string');
          codes.set(answer.result.error.code, (codes.get(answer.result.error.code) ?? 0) + 1);
          if (answer.result.error.code === 'INTERNAL') console.error(answer.result.error.message);
        }
        // What crosses a port must be cloneable: no functions, no cycles.
        structuredClone(answer);
      } catch (error) {
        crashes++;
        console.error(error);
      }
    }
    expect(crashes).toBe(0);
    expect(codes.get('INTERNAL') ?? 0).toBe(0);
    expect(codes.get('BAD_REQUEST')).toBeGreaterThan(1000);
    // Some fuzzed requests were valid and reached the engine: the fuzz is not only bouncing off the envelope.
    expect(oks).toBeGreaterThan(50);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    console.log(`fuzz: ${messages.length} messages, ${oks} answered ok, errors ${JSON.stringify(Object.fromEntries(codes))}`);
  });

  it('checks every call schema it declares', () => {
    for (const name of CALL_NAMES) {
      expect(CALLS[name].request.safeParse({ unexpected: 1 }).success, name).toBe(false);
      expect(CALLS[name].request.safeParse(null).success, name).toBe(false);
    }
  });
});
