import { readdirSync, readFileSync } from 'node:fs';

// A thread's niceness as the Linux kernel keeps it: field 19 of its stat file (after the
// parenthesised command name, which may hold spaces). Read by the tests of thread priorities, so
// what they count is the kernel's record, not what the code under test says it set.

function niceOf(statFile: string): number {
  const stat = readFileSync(statFile, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

/** The calling thread's niceness. */
export function threadNiceness(): number {
  return niceOf('/proc/thread-self/stat');
}

/** The niceness of every thread of this process. */
export function processThreadNiceness(): number[] {
  return readdirSync('/proc/self/task').map((tid) => niceOf(`/proc/self/task/${tid}/stat`));
}
