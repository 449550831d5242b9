import { lstatSync, readdirSync, type BigIntStats } from 'node:fs';
import { dirname, join, parse, sep } from 'node:path';
import { hasRawBytes } from '../../../shared/fileNameBytes.js';

// An absolute path as the disk spells it. On a folder that folds case or normalization, `~/RD`
// opens `~/rd`, and the path as typed would give one folder two projects, or let `RD/inside`
// pass for a place outside project `rd`. Each existing part is looked up in another spelling
// (case swapped, the other normalization): only when that finds the same device and inode, so the
// folder folds, is the parent listed and the entry with that device and inode taken, in the
// spelling it was made with. On ext4 a part costs one more lstat and no listing. Parts that do
// not exist are kept as typed. Nothing is followed through a link.

/** `abs` with each existing part in its spelling on disk. */
export function diskSpelling(abs: string): string {
  const { root } = parse(abs);
  return spelledFrom(root, abs.slice(root.length).split(sep).filter(Boolean));
}

/**
 * Whether a project path is spelled as the disk spells it, below `root` (itself taken as spelled
 * right): where names fold, `README.md` is found when the disk holds `readme.md`, but is not there.
 */
export function spelledAsOnDisk(root: string, path: string): boolean {
  const parts = path.split('/');
  return spelledFrom(root, parts) === join(root, parts.join(sep));
}

function spelledFrom(start: string, parts: readonly string[]): string {
  // Names that are not UTF-8 exist only where names are bytes, compared exactly.
  if (parts.some(hasRawBytes)) return join(start, parts.join(sep));
  let at = start;
  for (let i = 0; i < parts.length; i++) {
    const typed = join(at, parts[i]!);
    const st = lstatOrUndefined(typed);
    if (!st) return join(typed, parts.slice(i + 1).join(sep));
    at = foldsHere(typed, st) ? join(at, spelledOnDisk(at, parts[i]!, st)) : typed;
  }
  return at;
}

/** Whether another spelling of the path's last name finds the same entry. */
function foldsHere(path: string, st: BigIntStats): boolean {
  const name = path.slice(dirname(path).length + 1);
  for (const other of otherSpellings(name)) {
    const alt = lstatOrUndefined(join(dirname(path), other));
    if (alt && alt.dev === st.dev && alt.ino === st.ino) return true;
  }
  return false;
}

function otherSpellings(name: string): string[] {
  const upper = name.toUpperCase();
  const lower = name.toLowerCase();
  const out = new Set([upper, lower, name.normalize('NFC'), name.normalize('NFD')]);
  out.delete(name);
  return [...out];
}

function spelledOnDisk(dir: string, typed: string, st: BigIntStats): string {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return typed;
  }
  if (names.includes(typed)) return typed;
  for (const name of names) {
    const found = lstatOrUndefined(join(dir, name));
    if (found && found.dev === st.dev && found.ino === st.ino) return name;
  }
  return typed;
}

function lstatOrUndefined(path: string): BigIntStats | undefined {
  try {
    return lstatSync(path, { bigint: true });
  } catch {
    return undefined;
  }
}
