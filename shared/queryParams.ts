// A URL's query or fragment as name/value pairs, read the way URLSearchParams reads them ('+' a
// space, %XX decoded), for code that runs where no URL globals are typed (shared/ has no DOM nor
// Node). A malformed escape makes the whole text unreadable: null.

export function readParams(text: string): [string, string][] | null {
  const pairs: [string, string][] = [];
  for (const part of text.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = decode(eq === -1 ? part : part.slice(0, eq));
    const value = decode(eq === -1 ? '' : part.slice(eq + 1));
    if (name === null || value === null) return null;
    pairs.push([name, value]);
  }
  return pairs;
}

export function writeParams(pairs: readonly [string, string][]): string {
  return pairs.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&');
}

function decode(text: string): string | null {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}
