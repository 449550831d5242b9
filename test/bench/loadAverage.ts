import { loadavg } from 'node:os';

// A measuring run wants the machine to itself: each benchmark prints the one-minute load average
// when it starts and ends, and a run that started above 1.0 is redone.

export function loadLine(when: 'start' | 'end'): string {
  const [one, five] = loadavg();
  const warn = when === 'start' && one! > 1 ? ' (above 1.0: redo this run on a quieter machine)' : '';
  return `load average at ${when}: ${one!.toFixed(2)} (5 min ${five!.toFixed(2)})${warn}`;
}
