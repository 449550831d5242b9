import type { BigIntStats } from 'node:fs';

// What a stat says about a file that the stat cache compares on the next scan: size, mode and
// the three stamps that change when the file does. One shape for the walk's entries, the copy
// workers' results and the stat cache's rows, made from a bigint stat in one place.

export interface StatStamp {
  size: number;
  /** Permission bits only (mode & 0o7777). */
  mode: number;
  mtimeNs: string;
  ctimeNs: string;
  ino: string;
}

export function stampOf(st: BigIntStats): StatStamp {
  return {
    size: Number(st.size),
    mode: Number(st.mode & 0o7777n),
    mtimeNs: st.mtimeNs.toString(),
    ctimeNs: st.ctimeNs.toString(),
    ino: st.ino.toString(),
  };
}
