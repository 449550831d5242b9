import { describe, expect, it } from 'vitest';
import { existsSync, statfsSync } from 'node:fs';
import { rulesVaryPerFolder } from '../../../electron/history/paths/rulesPerFolder.js';
import { describeOnFoldFs } from '../../helpers/foldMount.js';
import { tempDir } from '../../helpers/tempDirs.js';

// Which file systems answer a folder's name rules per folder rather than per device.

const EXT4 = 0xef53;

describe('where name rules may differ from folder to folder', () => {
  it('NTFS folders may (per-directory case sensitivity); an APFS volume answers for all its folders', () => {
    const dir = tempDir();
    expect(rulesVaryPerFolder(dir, 'win32')).toBe(true);
    expect(rulesVaryPerFolder(dir, 'darwin')).toBe(false);
  });

  it("ext4's folders differ only where the kernel can flag one +F (skipped where the temp folder is not on ext4)", (ctx) => {
    const dir = tempDir();
    if (statfsSync(dir).type !== EXT4) ctx.skip('the temp folder is not on ext4');
    expect(rulesVaryPerFolder(dir, 'linux')).toBe(existsSync('/sys/fs/ext4/features/casefold'));
  });
});

describeOnFoldFs('a FUSE layer', (mount) => {
  it('resolves names as it likes, so each of its folders is looked at', () => {
    expect(rulesVaryPerFolder(mount().dir, 'linux')).toBe(true);
  });
});
