import { useSyncExternalStore } from 'react';
import { clockNow, subscribeClock } from '../format/clock.js';
import { formatExact, formatRelative } from '../format/time.js';

// "3 minutes ago" that keeps up with the clock, the exact time in its tooltip. It re-renders
// only when its words change, however often the shared clock ticks.

export function useRelativeTime(at: number): string {
  return useSyncExternalStore(subscribeClock, () => formatRelative(at, clockNow()));
}

export function RelativeTime({ at, className, prefix = '', title }: { at: number; className?: string; prefix?: string; title?: string }) {
  const words = useRelativeTime(at);
  return (
    <time className={className} dateTime={new Date(at).toISOString()} title={title ?? formatExact(at)}>
      {prefix}
      {words}
    </time>
  );
}
