// The names Windows cannot hold, for a history recorded on Linux or macOS and brought to Windows
// (a bundle, a clone, a pull): they are listed at import and skipped by a restore there, each with
// its reason, instead of failing half way. Pure rules: tested on any machine.

/** Windows' own limit on a path without the `\\?\` long-path prefix, its closing NUL included. */
export const WINDOWS_MAX_PATH = 260;

const RESERVED_DEVICE = /^(con|prn|aux|nul|com[1-9¹²³]|lpt[1-9¹²³])(\..*)?$/i;
const RESERVED_CHARS = /[<>:"|?*\\]/;

export type WindowsNameProblem = 'reserved-name' | 'reserved-character' | 'trailing-dot-or-space' | 'too-long';

/** Why Windows cannot hold project path `path` under a folder whose path is `rootLength` characters long, or null. */
export function windowsNameProblem(path: string, rootLength = 0): WindowsNameProblem | null {
  for (const name of path.split('/')) {
    if (RESERVED_DEVICE.test(name.replace(/[. ]+$/, ''))) return 'reserved-name';
    if (RESERVED_CHARS.test(name) || hasControl(name)) return 'reserved-character';
    if (/[. ]$/.test(name)) return 'trailing-dot-or-space';
  }
  // The folder, a separator, the path, and the NUL that ends it.
  if (rootLength + 1 + path.length + 1 > WINDOWS_MAX_PATH) return 'too-long';
  return null;
}

/** Characters 1 to 31: Windows refuses them in names (NUL no project path holds). */
function hasControl(name: string): boolean {
  for (let i = 0; i < name.length; i++) if (name.charCodeAt(i) < 0x20) return true;
  return false;
}

const WORDS: Record<WindowsNameProblem, string> = {
  'reserved-name': 'a name Windows keeps for a device',
  'reserved-character': 'a character Windows does not allow in names',
  'trailing-dot-or-space': 'a name ending in a dot or a space',
  'too-long': `longer than Windows' ${WINDOWS_MAX_PATH} characters`,
};

export function windowsProblemWords(problem: WindowsNameProblem): string {
  return WORDS[problem];
}
