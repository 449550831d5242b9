import type { Progress } from '../../shared/progress.js';

// Progress reported at most every `intervalMs`, and always once at the end, so a copy of 50,000
// small files does not flood the UI with 50,000 events.

export type ProgressSink = (progress: Progress) => void;

export function throttleProgress(
  sink: ProgressSink | undefined,
  intervalMs = 100,
): {
  update: (progress: Progress) => void;
  finish: (progress: Progress) => void;
} {
  let last = -Infinity;
  return {
    update(progress) {
      if (!sink) return;
      const now = performance.now();
      if (now - last < intervalMs) return;
      last = now;
      sink(progress);
    },
    finish(progress) {
      sink?.(progress);
    },
  };
}
