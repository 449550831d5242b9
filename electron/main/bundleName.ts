// The file name a page suggests for the save dialog of "Export history…": a plain, short name,
// never a path (the dialog would otherwise open wherever the page pointed it).

export function suggestedBundleName(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > 200) return null;
  if (/[\\/\0]/.test(value) || value === '.' || value === '..') return null;
  return value;
}
