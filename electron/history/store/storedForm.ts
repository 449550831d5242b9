import { BlobUndecodable, compressedRawLength, mayBeCompressed } from '../codec/blobCodec.js';
import { damaged, type BlobPlace, type BlobSubject } from './blobDamage.js';
import { inflateChecked, readCompressedFile } from './openBlob.js';

/**
 * A blob as it is kept: a compressed blob's file as it is (the store's compressed form, header
 * and frame), or `raw` for anything else (a raw blob, or any form that is not one compressed
 * file), whose bytes the caller reads through the checked readers here. This is how an export and
 * a push carry a compressed blob without inflating and compressing it again. The header is
 * always checked against `size` (a damaged one is BLOB_CORRUPT); `inflate` also inflates it,
 * bounded by `size`, and checks its hash (a push: a damaged blob never reaches the remote); an
 * export leaves that to the importer, which checks every compressed form it takes.
 */
export function readStoredForm(place: BlobPlace, hash: string, size: number, options: { inflate?: boolean; subject?: BlobSubject } = {}): StoredForm {
  if (!mayBeCompressed(size)) return { form: 'raw' };
  const { subject } = options;
  const stored = readCompressedFile(place, hash, subject);
  if (stored === undefined) return { form: 'raw' };
  if (options.inflate) inflateChecked(place, hash, stored, size, subject);
  else checkRecordedLength(place, hash, stored, size, subject);
  return { form: 'compressed', bytes: stored };
}

export type StoredForm = { form: 'raw' } | { form: 'compressed'; bytes: Buffer };

function checkRecordedLength(place: BlobPlace, hash: string, stored: Buffer, size: number, subject?: BlobSubject): void {
  let length: number;
  try {
    length = compressedRawLength(stored);
  } catch (error) {
    if (error instanceof BlobUndecodable) throw damaged(place, hash, 'corrupt', error.why, subject);
    throw error;
  }
  if (length !== size) throw damaged(place, hash, 'corrupt', `its header records ${length} bytes where ${size} were stored`, subject);
}
