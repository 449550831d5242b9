// The one way a test waits for something to happen: look again every few milliseconds until it
// holds, and past a deadline fail naming what was awaited, so a broken mechanism shows as "waited
// 30 s for: groups.length === 2" rather than as the test runner's bare timeout. The deadline stays
// below the suites' 60 s test timeout.

export interface UntilOptions {
  /** What is awaited, for the failure; the condition's own source text by default. */
  what?: string;
  /** How long to keep looking (30 s by default). */
  deadlineMs?: number;
  /** How often to look (20 ms by default; 0 looks again on the next turn of the event loop). */
  everyMs?: number;
}

const DEFAULT_DEADLINE_MS = 30_000;

/** Resolves once `ready()` holds; rejects naming what it waited for when the deadline passes first. */
export async function until(ready: () => boolean | Promise<boolean>, options: UntilOptions = {}): Promise<void> {
  const { deadlineMs = DEFAULT_DEADLINE_MS, everyMs = 20 } = options;
  const deadline = Date.now() + deadlineMs;
  while (!(await ready())) {
    if (Date.now() > deadline) {
      const what = options.what ?? ready.toString().replace(/^(async\s*)?\(\)\s*=>\s*/, '');
      throw new Error(`waited ${deadlineMs / 1000} s for: ${what}`);
    }
    await new Promise((resolve) => (everyMs === 0 ? setImmediate(resolve) : setTimeout(resolve, everyMs)));
  }
}
