// The patterns that take a backtracking engine exponential (or high polynomial) time, each with
// the text that makes it so: `unit` repeated to the size asked, then `end` (a character that
// fails the match at the last moment, or nothing). The search's regex engine must stay linear on
// every one (issue 41: the 1 MiB time at most 4.5 times the 256 KiB time).

export interface CatastrophicCase {
  pattern: string;
  unit: string;
  end: string;
}

export const CATASTROPHIC: readonly CatastrophicCase[] = [
  { pattern: '(a|aa)*b', unit: 'a', end: '' },
  { pattern: '(.*a){12}', unit: 'a', end: '' },
  { pattern: '(x+x+)+y', unit: 'x', end: '' },
  { pattern: '[ab]{0,100}c', unit: 'a', end: '' },
  { pattern: '(a*)*b', unit: 'a', end: '' },
  { pattern: '(a+)+b', unit: 'a', end: '' },
  { pattern: '(a|a)*b', unit: 'a', end: '' },
  { pattern: '(a|ab)*c', unit: 'ab', end: '' },
  { pattern: '^(\\w+\\s?)*$', unit: 'ab ', end: '!' },
  { pattern: '(\\d+)*x', unit: '1', end: '' },
  { pattern: '(a?){25}a{25}', unit: 'a', end: '' },
  { pattern: '(a|b|ab)*c', unit: 'ab', end: '' },
  { pattern: '(?:a+)+b', unit: 'a', end: '' },
  { pattern: '(\\w|\\d)+!', unit: '1', end: '' },
  { pattern: '([a-z]+)*=', unit: 'a', end: '' },
  { pattern: '(.*?,){11}P', unit: 'a,', end: '' },
  { pattern: '^(a+)+$', unit: 'a', end: '!' },
  { pattern: '(a|aa)*(a|aa)*(a|aa)*b', unit: 'a', end: '' },
  { pattern: '(\\s*a)*x', unit: ' a', end: '' },
  { pattern: '(a{1,10}){1,10}b', unit: 'a', end: '' },
];

/** The case's text of `bytes` characters (ASCII: one byte each). */
export function catastrophicText(c: CatastrophicCase, bytes: number): string {
  const body = c.unit.repeat(Math.ceil((bytes - c.end.length) / c.unit.length)).slice(0, bytes - c.end.length);
  return body + c.end;
}
