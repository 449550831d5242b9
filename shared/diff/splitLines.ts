// Text as the line diff sees it: lines with their terminators kept, so "x" at the end of a file
// and "x\n" differ (as `diff -u` reports "\ No newline at end of file"), and a file that
// switched from LF to CRLF shows every line changed rather than none. Lines end at "\n", "\r\n"
// or a lone "\r", where the viewer's editor ends them too, so line numbers agree with what it shows.

export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 10 && c !== 13) continue;
    if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
    lines.push(text.slice(start, i + 1));
    start = i + 1;
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

/** How many characters of a line from splitLines are its terminator (0, 1 or 2). */
export function terminatorLength(line: string): number {
  if (line.endsWith('\r\n')) return 2;
  return line.endsWith('\n') || line.endsWith('\r') ? 1 : 0;
}

/** Both sides' lines as small integers, equal lines equal numbers, so the diff compares numbers. */
export function internLines(a: readonly string[], b: readonly string[]): { a: Int32Array; b: Int32Array; distinct: number } {
  const ids = new Map<string, number>();
  const intern = (lines: readonly string[]) => {
    const out = new Int32Array(lines.length);
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      let id = ids.get(line);
      if (id === undefined) {
        id = ids.size;
        ids.set(line, id);
      }
      out[i] = id;
    }
    return out;
  };
  const ia = intern(a);
  const ib = intern(b);
  return { a: ia, b: ib, distinct: ids.size };
}
