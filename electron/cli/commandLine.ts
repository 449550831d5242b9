// The command line in the order main.ts reads it: the command's name first. The global flags
// (--data-dir DIR, --json) may be typed anywhere, before the command too (`hindsight --json log .`,
// as git's and npm's own options go); those typed before it are moved after it, where the
// command's parser takes them with its own flags.

const GLOBAL_BOOLEANS = new Set(['--json']);
const GLOBAL_WITH_VALUE = new Set(['--data-dir']);

export function commandFirst(argv: readonly string[]): string[] {
  const leading: string[] = [];
  let i = 0;
  while (i < argv.length) {
    const arg = argv[i]!;
    if (GLOBAL_BOOLEANS.has(arg) || [...GLOBAL_WITH_VALUE].some((flag) => arg.startsWith(`${flag}=`))) {
      leading.push(arg);
      i += 1;
    } else if (GLOBAL_WITH_VALUE.has(arg) && i + 1 < argv.length) {
      leading.push(arg, argv[i + 1]!);
      i += 2;
    } else break;
  }
  // No command after them: the usage, as for an empty line. A flag missing its value stays where
  // it was, and the command's parser says what is wrong with it.
  return i === argv.length ? [] : [...argv.slice(i), ...leading];
}
