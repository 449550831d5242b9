import { describe, expect, it } from 'vitest';
import { chmodSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { blobPath } from '../../../electron/history/store/storeLayout.js';
import { sha256 } from '../../helpers/writeTree.js';
import { notRacy, projectWithBaseline } from '../versions/versionsHelpers.js';

// Every reader of stored bytes goes through the one blob reader, so a blob that is gone, whose
// length is not what the index recorded, or whose bytes no longer hash to its name (one flipped
// byte), gives the same typed error whoever reads it: the viewer (a version's head, a diff), the
// CLI (a stream), a restore of one file or of a snapshot. A restore that cannot read its blob
// leaves the file on disk as it was, and no temp behind.

const CONTENTS = 'the recorded contents\n';

async function damaged(damage: (blob: string) => void) {
  const project = await projectWithBaseline({ 'doc.txt': CONTENTS, 'other.txt': 'fine' });
  const { root, store } = project;
  writeFileSync(join(root, 'doc.txt'), 'edited since\n');
  notRacy(store);
  damage(blobPath(store.blobs.dir, sha256(CONTENTS)));
  const [baseline] = project.engine.versions(project.projectId, 'doc.txt');
  return { ...project, versionId: baseline!.versionId };
}

const damages = {
  missing: { code: 'BLOB_MISSING', damage: (blob: string) => rmSync(blob) },
  corrupt: {
    code: 'BLOB_CORRUPT',
    damage: (blob: string) => {
      chmodSync(blob, 0o644);
      writeFileSync(blob, CONTENTS.slice(0, 5));
    },
  },
  'one byte flipped': {
    code: 'BLOB_CORRUPT',
    damage: (blob: string) => writeFileSync(blob, flipped(readFileSync(blob))),
  },
} as const;

function flipped(bytes: Buffer): Buffer {
  const copy = Buffer.from(bytes);
  copy[3] = copy[3]! ^ 0x20;
  return copy;
}

describe('the one blob reader', () => {
  for (const [name, { code, damage }] of Object.entries(damages)) {
    it(`gives ${code} for a ${name} blob to every reader, and a restore changes nothing`, async () => {
      const { engine, projectId, root, versionId, store } = await damaged(damage);
      const hash = sha256(CONTENTS);
      const expected = { code, details: expect.objectContaining({ hash }) };

      await expect(engine.readVersion(projectId, 'doc.txt', { versionId, maxBytes: 1024 })).rejects.toMatchObject(expected);
      // A head shorter than the blob is checked too (the whole blob is hashed once).
      await expect(engine.readVersion(projectId, 'doc.txt', { versionId, maxBytes: 4 })).rejects.toMatchObject(expected);
      // The error names the version whose contents are affected.
      await expect(engine.readVersion(projectId, 'doc.txt', { versionId, maxBytes: 1024 })).rejects.toThrow(`doc.txt (version ${versionId})`);
      await expect(engine.diffInputs(projectId, 'doc.txt', { kind: 'version', versionId }, { kind: 'disk' }, 1024)).rejects.toMatchObject(expected);
      const shown: Buffer[] = [];
      const show = async () => {
        for await (const chunk of await engine.versionStream(projectId, 'doc.txt', versionId)) shown.push(chunk as Buffer);
      };
      await expect(show()).rejects.toMatchObject(expected);
      // Not one byte of a damaged blob of one piece is handed on.
      expect(shown).toEqual([]);

      await expect(engine.restoreFile(projectId, 'doc.txt', versionId)).rejects.toMatchObject(expected);
      expect(readFileSync(join(root, 'doc.txt'), 'utf8')).toBe('edited since\n');
      await expect(engine.restoreSnapshot(projectId, store.index.snapshotReads.baselineId()!)).rejects.toMatchObject({ code });
      expect(readFileSync(join(root, 'doc.txt'), 'utf8')).toBe('edited since\n');
      expect(readdirSync(root).filter((n) => n.includes('.hindsight-'))).toEqual([]);
      // The other file's blob is fine, and reads as ever.
      expect((await engine.readVersion(projectId, 'other.txt', { maxBytes: 1024 })).data).toBe('fine');
    });
  }
});
