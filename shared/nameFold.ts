// How a folder compares names. Linux's ext4 compares them byte for byte; macOS's APFS and HFS+
// fold case and Unicode normalization (`café` composed and decomposed are one name); Windows' NTFS
// folds case only. Two names are one file in a folder exactly when their folds under its rules
// are equal. The spelling on disk is always kept: the fold is only ever a key.

export interface NameRules {
  /** `README.md` and `readme.md` are one name. */
  foldsCase: boolean;
  /** `café` composed (NFC) and decomposed (NFD) are one name. */
  foldsNormalization: boolean;
}

/** A folder that compares names byte for byte (ext4, and what every history records). */
export const EXACT_NAMES: NameRules = Object.freeze({ foldsCase: false, foldsNormalization: false });

export function foldsAnything(rules: NameRules): boolean {
  return rules.foldsCase || rules.foldsNormalization;
}

// Printable ASCII and the few controls a name may hold fold by toLowerCase alone.
const ASCII = /^[ -~\t]*$/;
const folded = new Map<string, string>();

/**
 * The key under which a folder with `rules` finds a name or a '/'-separated path. Case is folded
 * one code point at a time (upper then lower case, as Unicode's full case folding does, without
 * the context rules of a word's end that String.toLowerCase applies to a Greek sigma).
 */
export function foldName(name: string, rules: NameRules): string {
  if (!rules.foldsCase) return rules.foldsNormalization ? name.normalize('NFD') : name;
  if (ASCII.test(name)) return name.toLowerCase();
  const source = rules.foldsNormalization ? name.normalize('NFD') : name;
  let out = '';
  for (const ch of source) out += foldCodePoint(ch);
  return rules.foldsNormalization ? out.normalize('NFD') : out;
}

function foldCodePoint(ch: string): string {
  let f = folded.get(ch);
  if (f === undefined) {
    // A dotless ı has no lower case of its own under full folding (its upper case is a plain I,
    // which would join it with i); ß and ẞ fold to "ss".
    f = ch === '\u0131' ? ch : ch.toUpperCase().toLowerCase().replace(/ß/g, 'ss');
    folded.set(ch, f);
  }
  return f;
}

/** Whether two names or paths are one in a folder with `rules`. */
export function sameName(a: string, b: string, rules: NameRules): boolean {
  return a === b || (foldsAnything(rules) && foldName(a, rules) === foldName(b, rules));
}
