// Which UTF-16 code units the `i` flag takes as equal, for the linear-time matcher
// (linearMatcher.ts): JavaScript without `u` compares Canonicalize(unit), its toUpperCase kept to
// one unit and never mapping a non-ASCII letter to ASCII (so `ſ` is not `s`, `ı` is not `i`).

let sameCase: Map<number, number[]> | undefined;

/** Every code unit whose Canonicalize equals that of `unit`, itself included. */
export function caseClass(unit: number): number[] {
  if (!sameCase) {
    sameCase = new Map();
    for (let u = 0; u <= 0xffff; u++) {
      const key = canonicalize(u);
      const members = sameCase.get(key);
      if (members) members.push(u);
      else sameCase.set(key, [u]);
    }
  }
  return sameCase.get(canonicalize(unit))!;
}

function canonicalize(unit: number): number {
  const upper = String.fromCharCode(unit).toUpperCase();
  if (upper.length !== 1) return unit;
  const code = upper.charCodeAt(0);
  return unit >= 128 && code < 128 ? unit : code;
}
