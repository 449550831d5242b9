import type { UnwritableName } from '../../../shared/contract/values.js';
import { displayPath, visibleText } from '../../../shared/fileNameBytes.js';
import { windowsProblemWords } from '../../../shared/windowsNames.js';

// Names Windows cannot hold: one line each, with why, for a restore that skipped them or an
// import that brought them in.

export function describeUnwritable(names: readonly UnwritableName[] | undefined, what: 'skipped' | 'imported'): string {
  if (!names || names.length === 0) return '';
  const head =
    what === 'skipped'
      ? `Skipped ${names.length === 1 ? 'one file' : `${names.length} files`} whose name Windows cannot hold (restore --into a folder on another system to get them):\n`
      : `${names.length === 1 ? 'One path' : `${names.length} paths`} of this history cannot be written on Windows; a restore here skips them:\n`;
  return head + names.map((n) => `  ${visibleText(displayPath(n.path))}: ${windowsProblemWords(n.problem)}\n`).join('');
}
