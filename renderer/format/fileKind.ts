// What a file is, from its name: how to show its contents and which highlighter reads it.

export type ViewKind = 'text' | 'image' | 'binary';

const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  ico: 'image/x-icon',
  svg: 'image/svg+xml',
  avif: 'image/avif',
};

const BINARY_TYPES: Record<string, string> = {
  pdf: 'PDF document',
  zip: 'ZIP archive',
  gz: 'gzip archive',
  tar: 'tar archive',
  mp4: 'MPEG-4 video',
  mov: 'QuickTime video',
  mkv: 'Matroska video',
  webm: 'WebM video',
  mp3: 'MP3 audio',
  wav: 'WAV audio',
  psd: 'Photoshop document',
  sqlite: 'SQLite database',
  db: 'database',
  woff: 'font',
  woff2: 'font',
  ttf: 'font',
  otf: 'font',
  exe: 'executable',
  bin: 'binary data',
};

export function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export function imageMime(path: string): string | null {
  return IMAGE_TYPES[extensionOf(path)] ?? null;
}

/** A name for a binary's type a person recognises. */
export function binaryTypeName(path: string): string {
  const ext = extensionOf(path);
  return BINARY_TYPES[ext] ?? (ext ? `${ext.toUpperCase()} file` : 'binary file');
}

export function viewKind(path: string, binary: boolean): ViewKind {
  if (imageMime(path) && extensionOf(path) !== 'svg') return 'image';
  if (extensionOf(path) === 'svg') return binary ? 'binary' : 'image';
  return binary ? 'binary' : 'text';
}
