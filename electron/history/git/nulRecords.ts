// Splits git's NUL-terminated output (-z, %x00) into records, decoding each one from the joined
// buffer on its own: the whole output never becomes one string. A trailing record without its
// NUL (output cut short by the allowance) is dropped, never returned half.

export function nulRecords(output: Buffer): string[] {
  const records: string[] = [];
  let start = 0;
  for (let end = output.indexOf(0, start); end !== -1; end = output.indexOf(0, start)) {
    records.push(output.toString('utf8', start, end));
    start = end + 1;
  }
  return records;
}

/** The first line of a short answer (rev-parse, symbolic-ref), without its newline. */
export function firstLine(output: Buffer): string {
  const text = output.toString('utf8');
  const end = text.indexOf('\n');
  return end === -1 ? text : text.slice(0, end);
}
