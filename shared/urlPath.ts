// A URL path as the segments of a file under a served folder, or null when it is not one: bad
// percent-encoding, NUL, backslashes, '.' or '..' segments. Pure string work, shared by the browser
// host and the app's own protocol; each joins the segments with its platform's path rules.

export function servedSegments(pathname: string): string[] | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const segments = decoded.split('/').filter((s) => s !== '');
  if (segments.some((s) => s === '..' || s === '.')) return null;
  return segments.length === 0 ? ['index.html'] : segments;
}
