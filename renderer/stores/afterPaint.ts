// Work that can wait until the state just set has been painted: requested from the frame after
// (requestAnimationFrame runs before that frame's paint; the task it queues runs after it). Where
// there are no frames (the store run by tests in Node), the next task.

export function afterPaint(work: () => void): void {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => setTimeout(work, 0));
  else setTimeout(work, 0);
}
