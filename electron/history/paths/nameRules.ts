import { lstatSync, readdirSync, type BigIntStats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { EXACT_NAMES, type NameRules } from '../../../shared/nameFold.js';

// A folder's name rules, found out read-only: an existing name is looked up in another spelling
// (its case swapped; its other Unicode normalization) and the device and inode compared. Nothing is
// ever written into the folder. Case and normalization are separate properties (NTFS folds case
// only; ext4's casefold is set per folder), and the answer is kept per device: a folder on another
// device (a mount inside the project) is looked at on its own.

const byDevice = new Map<string, NameRules>();

/** The rules of the folder at `dir` (an absolute, existing folder). */
export function nameRulesOf(dir: string): NameRules {
  let st: BigIntStats;
  try {
    st = lstatSync(dir, { bigint: true });
  } catch {
    // Nothing there to look at: whoever lists it next says why; names are compared exactly meanwhile.
    return EXACT_NAMES;
  }
  const known = byDevice.get(String(st.dev));
  if (known) return known;
  const rules = probe(dir, st);
  byDevice.set(String(st.dev), rules);
  return rules;
}

/** The rules already found for a device, without looking at the disk. */
export function knownRules(dev: bigint | number): NameRules | undefined {
  return byDevice.get(String(dev));
}

/** Forgets what was found (a device number may be reused by a later mount). */
export function forgetNameRules(): void {
  byDevice.clear();
}

function probe(dir: string, st: BigIntStats): NameRules {
  const names = namesNear(dir, st.dev);
  const caseName = names.find((name) => swapCase(name) !== name);
  const foldsCase = caseName !== undefined && sameEntry(caseName, swapCase(caseName), st.dev);
  const formName = names.find((name) => otherForm(name) !== name);
  // With no composed or decomposed name to look up, a folder that folds case is taken to fold
  // normalization too, as APFS and HFS+ do: the cautious side when names are compared for a restore.
  const foldsNormalization = formName === undefined ? foldsCase : sameEntry(formName, otherForm(formName), st.dev);
  return foldsCase || foldsNormalization ? { foldsCase, foldsNormalization } : EXACT_NAMES;
}

/**
 * Absolute paths of the folder's own entries, then the folder itself, its parent and so on up, as
 * long as the folder that resolves the name is on the same device (a mount point's own name is
 * looked up by the file system it is mounted on).
 */
function namesNear(dir: string, dev: bigint): string[] {
  let entries: string[] = [];
  try {
    entries = readdirSync(dir).map((name) => join(dir, name));
  } catch {
    // An unreadable folder: only its own name and its parents' are looked at.
  }
  const up: string[] = [];
  for (let at = dir; dirname(at) !== at && devOf(dirname(at)) === dev; at = dirname(at)) up.push(at);
  return [...entries, ...up];
}

function devOf(path: string): bigint | undefined {
  try {
    return lstatSync(path, { bigint: true }).dev;
  } catch {
    return undefined;
  }
}

function sameEntry(path: string, other: string, dev: bigint): boolean {
  try {
    const a = lstatSync(path, { bigint: true });
    if (devOf(dirname(path)) !== dev) return false;
    const b = lstatSync(other, { bigint: true });
    return a.dev === b.dev && a.ino === b.ino;
  } catch {
    return false;
  }
}

/** The path with its last name's case swapped. */
function swapCase(path: string): string {
  const name = basename(path);
  let out = '';
  for (const ch of name) out += ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase();
  return join(dirname(path), out);
}

/** The path with its last name in the other normalization (NFD when it is composed, else NFC). */
function otherForm(path: string): string {
  const name = basename(path);
  const nfd = name.normalize('NFD');
  return join(dirname(path), nfd === name ? name.normalize('NFC') : nfd);
}
