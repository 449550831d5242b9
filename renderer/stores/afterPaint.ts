// Work that can wait until the state just set has been painted: requested from the frame after
// (requestAnimationFrame runs before that frame's paint; the task it queues runs after it).
// Where nothing paints (the store run by tests in Node, no requestAnimationFrame), at once.

export function afterPaint(work: () => void): void {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => setTimeout(work, 0));
  else work();
}
