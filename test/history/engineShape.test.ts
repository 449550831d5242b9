import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The engine is the table of operations docs/ARCHITECTURE.md says it is: each call one to three
// statements handing the work to the module of its folder (or the object of its concept), so real
// logic cannot leak back into it unnoticed. Read from the source itself, as the compiler parses it.

const file = join(import.meta.dirname, '../../electron/history/historyEngine.ts');

function engineClass(source: ts.SourceFile): ts.ClassDeclaration {
  const found = source.statements.find((s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === 'HistoryEngine');
  if (!found) throw new Error('no class HistoryEngine in historyEngine.ts');
  return found;
}

describe('the history engine', () => {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);

  it('has under 400 lines of code, with no function of its own outside the class', () => {
    // Code lines, as the lint's size budgets count them: blank lines and comments are not code, so
    // the bound cannot be met (or missed) by layout.
    const code = text.split('\n').filter((line) => {
      const trimmed = line.trim();
      return trimmed !== '' && !trimmed.startsWith('//') && !trimmed.startsWith('/*') && !trimmed.startsWith('*');
    });
    expect(code.length).toBeLessThan(400);
    expect(source.statements.filter((s) => ts.isFunctionDeclaration(s)).map((s) => (s as ts.FunctionDeclaration).name?.text)).toEqual([]);
  });

  it('answers each call in one to three statements', () => {
    const methods = engineClass(source).members.filter((m): m is ts.MethodDeclaration => ts.isMethodDeclaration(m) && m.body !== undefined);
    expect(methods.length).toBeGreaterThan(50);
    const long = methods.filter((m) => m.body!.statements.length > 3).map((m) => `${m.name.getText()}: ${m.body!.statements.length} statements`);
    expect(long).toEqual([]);
    // A statement with a block of its own (a loop, a try, an if with braces) is logic, not a delegation.
    const nested = methods
      .filter((m) => m.body!.statements.some((s) => ts.forEachChild(s, (c) => (ts.isBlock(c) ? true : undefined))))
      .map((m) => m.name.getText());
    expect(nested).toEqual([]);
  });

  it('has one way to a project store: store(id)', () => {
    const names = engineClass(source).members.map((m) => m.name?.getText());
    expect(names).toContain('store');
    expect(names).not.toContain('history');
  });
});
