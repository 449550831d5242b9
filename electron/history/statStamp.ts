import type { BigIntStats } from 'node:fs';
import { count } from './trace.js';

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
  // Three strings per call: a rescan makes none for a file it finds unchanged (statTable.ts).
  count('stat.stamps');
  return {
    size: Number(st.size),
    mode: Number(st.mode & 0o7777n),
    mtimeNs: st.mtimeNs.toString(),
    ctimeNs: st.ctimeNs.toString(),
    ino: st.ino.toString(),
  };
}

const NS_PER_S = 1_000_000_000n;

/** A decimal nanosecond stamp as the kernel gives it: seconds, and nanoseconds in [0, 1e9) (also before 1970). */
export function splitNs(ns: string): [number, number] {
  const whole = BigInt(ns);
  const nsec = ((whole % NS_PER_S) + NS_PER_S) % NS_PER_S;
  return [Number((whole - nsec) / NS_PER_S), Number(nsec)];
}

/** The milliseconds a number Stats gives for a stamp: Node's own sum, so the same stamp is the same double. */
export function msOfTimeSpec(sec: number, nsec: number): number {
  return sec * 1e3 + nsec / 1e6;
}

/** The milliseconds a number Stats gives for a decimal nanosecond stamp. */
export function msOfNs(ns: string): number {
  const [sec, nsec] = splitNs(ns);
  return msOfTimeSpec(sec, nsec);
}
