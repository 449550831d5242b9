import { lstatSync, readdirSync, type BigIntStats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { EXACT_NAMES, type NameRules } from '../../../shared/nameFold.js';
import { rulesVaryPerFolder } from './rulesPerFolder.js';

// A folder's name rules, found out read-only: an existing name is looked up in another spelling
// (its case swapped; its other Unicode normalization) and the device and inode compared. Nothing is
// ever written into the folder. Case and normalization are separate properties (NTFS folds case
// only). Where a file system sets them per volume the answer is kept per device, so a folder on
// another device (a mount inside the project) is looked at on its own; where a folder may differ
// from its parent on one device (ext4's `chattr +F`, NTFS per-directory case sensitivity, FUSE:
// rulesPerFolder.ts) the answer is each folder's, found among its own names and kept per folder.

const byDevice = new Map<string, NameRules>();
const byFolder = new Map<string, NameRules>();
const perFolderDevices = new Map<string, boolean>();
/** Folders remembered before the list starts again (a walk of a large tree looks at each folder once). */
const FOLDERS_KEPT = 4096;

/** The rules of the folder at `dir` (an absolute, existing folder). */
export function nameRulesOf(dir: string): NameRules {
  let st: BigIntStats;
  try {
    st = lstatSync(dir, { bigint: true });
  } catch {
    // Nothing there to look at: whoever lists it next says why; names are compared exactly meanwhile.
    return EXACT_NAMES;
  }
  const dev = String(st.dev);
  const known = byDevice.get(dev);
  if (known) return known;
  let perFolder = perFolderDevices.get(dev);
  if (perFolder === undefined) {
    perFolder = rulesVaryPerFolder(dir);
    perFolderDevices.set(dev, perFolder);
  }
  if (!perFolder) {
    const rules = probe(dir, st, true);
    byDevice.set(dev, rules);
    return rules;
  }
  const key = `${dev}:${st.ino}`;
  const kept = byFolder.get(key);
  if (kept) return kept;
  const rules = probe(dir, st, false);
  if (byFolder.size >= FOLDERS_KEPT) byFolder.clear();
  byFolder.set(key, rules);
  return rules;
}

/** The rules already found for a device whose folders all compare names one way, without looking at the disk. */
export function knownRules(dev: bigint | number): NameRules | undefined {
  return byDevice.get(String(dev));
}

/** Forgets what was found (a device number may be reused by a later mount). */
export function forgetNameRules(): void {
  byDevice.clear();
  byFolder.clear();
  perFolderDevices.clear();
}

/**
 * Looks names of the folder up in another spelling. On a device whose folders differ, a name is
 * resolved by the folder holding it, so the folder's own entries answer first; only when none can
 * (an empty folder, names without case) are its own name and its parents' asked, as ext4 gives a
 * new folder its parent's flag.
 */
function probe(dir: string, st: BigIntStats, sameForDevice: boolean): NameRules {
  const own = ownNames(dir);
  const names = sameForDevice || !answers(own) ? [...own, ...namesUp(dir, st.dev)] : own;
  const caseName = names.find((name) => swapCase(name) !== name);
  const foldsCase = caseName !== undefined && sameEntry(caseName, swapCase(caseName), st.dev);
  const formName = names.find((name) => otherForm(name) !== name);
  // With no composed or decomposed name to look up, a folder that folds case is taken to fold
  // normalization too, as APFS and HFS+ do: the cautious side when names are compared for a restore.
  const foldsNormalization = formName === undefined ? foldsCase : sameEntry(formName, otherForm(formName), st.dev);
  return foldsCase || foldsNormalization ? { foldsCase, foldsNormalization } : EXACT_NAMES;
}

/** Whether some of the names can be looked up with their case swapped. */
function answers(names: readonly string[]): boolean {
  return names.some((name) => swapCase(name) !== name);
}

/** Absolute paths of the folder's own entries. */
function ownNames(dir: string): string[] {
  try {
    return readdirSync(dir).map((name) => join(dir, name));
  } catch {
    // An unreadable folder: only its own name and its parents' are looked at.
    return [];
  }
}

/**
 * The folder itself, its parent and so on up, as long as the folder that resolves the name is on
 * the same device (a mount point's own name is looked up by the file system it is mounted on).
 */
function namesUp(dir: string, dev: bigint): string[] {
  const up: string[] = [];
  for (let at = dir; dirname(at) !== at && devOf(dirname(at)) === dev; at = dirname(at)) up.push(at);
  return up;
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
