// The letters of each project's badge on the folded project list: the initials of its name's
// words ("my-app" is MA), and where two projects would wear the same badge, the first letter with
// the last letter or digit of the name, which tells apart names that differ only at their end
// (hindsight-2024 and hindsight-2025). Every badge has its full name in its tooltip too.

const WORD = /[\p{Lu}]?[\p{Ll}\p{N}]+|[\p{Lu}\p{N}]+(?![\p{Ll}])|[\p{L}\p{N}]/gu;

function initials(name: string): string {
  const words = name.match(WORD) ?? [];
  const letters = words.slice(0, 2).map((w) => w[0]!);
  return (letters.join('') || name.slice(0, 1) || '?').toUpperCase();
}

function firstAndLast(name: string): string {
  const chars = name.match(/[\p{L}\p{N}]/gu) ?? [];
  return `${chars[0] ?? '?'}${chars.at(-1) ?? ''}`.toUpperCase();
}

export function projectBadges(names: readonly string[]): string[] {
  const first = names.map(initials);
  const count = new Map<string, number>();
  for (const b of first) count.set(b, (count.get(b) ?? 0) + 1);
  return names.map((name, i) => (count.get(first[i]!)! > 1 ? firstAndLast(name) : first[i]!));
}
