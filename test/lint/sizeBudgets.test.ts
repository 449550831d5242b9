import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

// The size budgets (issue 42): a source file at most 400 lines and a function at most 80, blank
// lines and comments not counted, through ESLint's own API with the project's config on generated
// code placed where the rules apply; and no source file turns either rule off.

const root = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: root });
const SIZE_RULES = ['max-lines', 'max-lines-per-function'];

async function sizeErrors(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => SIZE_RULES.includes(m.ruleId ?? '')).map((m) => m.ruleId!);
}

/** A function of `lines` statements, each line of code followed by a blank line and a comment. */
function longFunction(name: string, lines: number): string {
  const body = Array.from({ length: lines }, (_, i) => `  total += ${i};\n\n  // step ${i}\n`).join('');
  return `export function ${name}(): number {\n  let total = 0;\n${body}  return total;\n}\n`;
}

describe('the size budgets', () => {
  it('fail a function past 80 lines of code and a file past 400, counting neither blanks nor comments', async () => {
    for (const filePath of ['electron/history/example.ts', 'shared/example.ts', 'renderer/example.tsx', 'electron/cli/example.ts']) {
      // The signature, the first and last statements and the brace: 76 more make 80 lines of code.
      expect(await sizeErrors(longFunction('atBound', 76), filePath)).toEqual([]);
      expect(await sizeErrors(longFunction('past', 77), filePath)).toEqual(['max-lines-per-function']);
      const manySmall = Array.from({ length: 80 }, (_, i) => longFunction(`f${i}`, 2)).join('\n');
      expect(await sizeErrors(manySmall, filePath)).toEqual(['max-lines']);
    }
  });

  it("hold the index's facade to 150 lines of code, and the facade as it is meets it", async () => {
    const facade = 'electron/history/db/historyIndex.ts';
    const lines = (count: number) => Array.from({ length: count }, (_, i) => `export const c${i} = ${i};\n\n// line ${i}\n`).join('');
    expect(await sizeErrors(lines(150), facade)).toEqual([]);
    expect(await sizeErrors(lines(151), facade)).toEqual(['max-lines']);
    // Elsewhere in db/ the general budget holds.
    expect(await sizeErrors(lines(151), 'electron/history/db/example.ts')).toEqual([]);
    const [result] = await eslint.lintFiles([facade]);
    expect(result!.messages.filter((m) => SIZE_RULES.includes(m.ruleId ?? ''))).toEqual([]);
  });

  it('are turned off nowhere in the sources', () => {
    const grep = spawnSync('git', ['grep', '-n', '-E', 'eslint-disable.*max-lines', '--', 'electron', 'shared', 'renderer', 'scripts'], {
      cwd: root,
      encoding: 'utf8',
    });
    // git grep exits 1 when nothing matches.
    expect([grep.status, grep.stdout]).toEqual([1, '']);
  });
});
