import { existsSync, statfsSync } from 'node:fs';

// Whether the folders of one device may compare names each its own way. APFS and HFS+ set it per
// volume; but ext4 and f2fs fold case only in folders flagged `chattr +F` (on a file system made
// with `-O casefold`), tmpfs likewise (Linux 6.13), NTFS has a per-directory case-sensitivity flag,
// and a FUSE layer resolves names however it likes. There a device's answer is wrong for its
// other folders: each folder is looked at on its own. A kernel built without casefold support
// (its /sys/fs/<fs>/features says so) cannot flag a folder, so its ext4 answers per device.

const EXT4 = 0xef53;
const F2FS = 0xf2f52010;
const TMPFS = 0x01021994;
const FUSE = 0x65735546;

/** The file system types (statfs f_type) whose folders may differ, and the kernel feature that lets them. */
const FLAGGED: ReadonlyMap<number, string> = new Map([
  [EXT4, '/sys/fs/ext4/features/casefold'],
  [F2FS, '/sys/fs/f2fs/features/casefold'],
  [TMPFS, '/sys/fs/tmpfs/features/casefold'],
]);

const featureThere = new Map<string, boolean>();

/** Whether folders on the file system holding `dir` may each fold names their own way. */
export function rulesVaryPerFolder(dir: string, platform: NodeJS.Platform = process.platform): boolean {
  if (platform === 'win32') return true;
  if (platform !== 'linux') return false;
  let type: number;
  try {
    type = statfsSync(dir).type;
  } catch {
    // Not answerable: looked at per folder, the cautious side.
    return true;
  }
  if (type === FUSE) return true;
  const feature = FLAGGED.get(type);
  if (feature === undefined) return false;
  let there = featureThere.get(feature);
  if (there === undefined) {
    there = existsSync(feature);
    featureThere.set(feature, there);
  }
  return there;
}
