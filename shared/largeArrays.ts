// Array work that never passes an array's elements as a call's arguments: `push(...items)` and
// `Math.max(...values)` put every element on the stack, and about 125,000 of them overflow it
// ("Maximum call stack size exceeded"), a size a long history reaches. Lint forbids the spread
// form (eslint.config.js); these loops take its place.

/** Appends every item to target, in order; answers target. */
export function appendAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}

/** The greatest of `start` and the values, as Math.max(start, ...values) answers. */
export function maxOf(values: Iterable<number>, start = -Infinity): number {
  let max = start;
  for (const value of values) if (value > max || Number.isNaN(value)) max = value;
  return max;
}

/** The least of `start` and the values, as Math.min(start, ...values) answers. */
export function minOf(values: Iterable<number>, start = Infinity): number {
  let min = start;
  for (const value of values) if (value < min || Number.isNaN(value)) min = value;
  return min;
}
