// What a first copy found before it stopped at the large-folder settings (CONFIRM_LARGE_FOLDER),
// read from the error's details.

export interface LargeFolderFound {
  /** The folder as it was asked for (opened again as is when confirmed). */
  path: string;
  root: string;
  files: number;
  bytes: number;
  limitFiles: number | null;
  limitBytes: number | null;
}

export function largeFolderFound(path: string, details: Record<string, unknown> | undefined): LargeFolderFound {
  const num = (v: unknown) => (typeof v === 'number' ? v : null);
  return {
    path,
    root: typeof details?.root === 'string' ? details.root : path,
    files: num(details?.files) ?? 0,
    bytes: num(details?.bytes) ?? 0,
    limitFiles: num(details?.limitFiles),
    limitBytes: num(details?.limitBytes),
  };
}
