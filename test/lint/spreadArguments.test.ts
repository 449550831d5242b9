import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

// The lint rule against spreading an array into a call (eslint.config.js SPREAD_ARGUMENT), run
// through ESLint's own API with the project's config on snippets placed where the rule applies.

const root = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: root });

async function spreadErrors(code: string, filePath = 'electron/history/example.ts'): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

describe('the lint rule against spread arguments', () => {
  it('fails an array spread into push, Math.max, String.fromCharCode and new', async () => {
    for (const code of [
      'export function f(a: number[], b: number[]): void {\n  a.push(...b);\n}\n',
      'export const m = (b: number[]): number => Math.max(0, ...b);\n',
      'export const s = (b: number[]): string => String.fromCharCode(...b);\n',
      'export const d = (b: [number]): Date => new Date(...b);\n',
    ]) {
      expect([code, await spreadErrors(code)]).toEqual([code, [expect.stringContaining('overflows the stack')]]);
    }
    expect(await spreadErrors('export const m = (b: number[]): number => Math.max(...b);\n', 'renderer/example.tsx')).toHaveLength(1);
    expect(await spreadErrors('export const m = (b: number[]): number => Math.max(...b);\n', 'shared/example.ts')).toHaveLength(1);
  });

  it('passes the bounded forms: a literal array, a choice of two, an array literal spread, a reasoned exception', async () => {
    expect(await spreadErrors('export const m = (a: number, b: number): number => Math.max(...[a, b]);\n')).toEqual([]);
    expect(await spreadErrors('export const f = (x: boolean, g: (...n: number[]) => void): void => g(...(x ? [1, 2] : [3]));\n')).toEqual([]);
    expect(await spreadErrors('export const c = (a: number[], b: number[]): number[] => [...a, ...b];\n')).toEqual([]);
    const reasoned =
      'export function f(g: (...a: unknown[]) => void, ...args: unknown[]): void {\n  // eslint-disable-next-line no-restricted-syntax -- forwarded parameters\n  g(...args);\n}\n';
    expect(await spreadErrors(reasoned)).toEqual([]);
  });
});
