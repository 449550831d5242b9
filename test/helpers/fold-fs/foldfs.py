#!/usr/bin/python3
"""A FUSE layer over a folder that resolves names as APFS does: case-insensitive, case-preserving
and normalization-insensitive. Names are compared by Python's own Unicode tables (str.casefold and
unicodedata's NFD), an implementation apart from the product's, so a wrong fold in the product
cannot pass by agreeing with itself. Every entry keeps the spelling it was created with.

A folder whose backing folder carries the extended attribute user.foldfs.exact compares the names
it holds byte for byte, as an NTFS folder with per-directory case sensitivity, or an ext4 folder
without `chattr +F` beside one with it, does: one device, two rules.

usage: foldfs.py <backing folder> <mount point>   (returns once mounted; the layer runs until unmounted)
"""

import errno
import os
import sys
import unicodedata

from fusepy import FUSE, FuseOSError, Operations


def fold(name):
    """The key two names share when APFS takes them for one: NFD, case folded, NFD again
    (case folding can produce composed characters)."""
    return unicodedata.normalize('NFD', unicodedata.normalize('NFD', name).casefold())


def exact_names(real_dir):
    """Whether the folder is flagged to compare its names exactly."""
    try:
        os.getxattr(real_dir, 'user.foldfs.exact')
        return True
    except OSError:
        return False


class FoldFs(Operations):
    def __init__(self, root):
        self.root = os.path.realpath(root)

    # -- names -------------------------------------------------------------------------------

    def _match(self, real_dir, name):
        """The entry of real_dir that name spells, exact first, else by folded form; None if none."""
        exact = os.path.join(real_dir, name)
        if os.path.lexists(exact):
            return exact
        if exact_names(real_dir):
            return None
        key = fold(name)
        try:
            entries = os.listdir(real_dir)
        except OSError:
            return None
        for entry in entries:
            if fold(entry) == key:
                return os.path.join(real_dir, entry)
        return None

    def _real(self, path):
        """The backing path of an existing path; ENOENT when a part is missing."""
        real = self.root
        for part in [p for p in path.split('/') if p]:
            found = self._match(real, part)
            if found is None:
                raise FuseOSError(errno.ENOENT)
            real = found
        return real

    def _target(self, path):
        """Where a path to create lands: the existing entry in another spelling, else the name as typed."""
        parent, name = os.path.split(path.rstrip('/'))
        real_parent = self._real(parent)
        found = self._match(real_parent, name)
        return found if found is not None else os.path.join(real_parent, name)

    # -- attributes ----------------------------------------------------------------------------

    def getattr(self, path, fh=None):
        st = os.lstat(self._real(path)) if fh is None else os.fstat(fh)
        keys = ('st_mode', 'st_ino', 'st_nlink', 'st_uid', 'st_gid', 'st_size', 'st_atime',
                'st_mtime', 'st_ctime', 'st_atime_ns', 'st_mtime_ns', 'st_ctime_ns', 'st_blocks')
        attrs = {key: getattr(st, key) for key in keys}
        # fusepy takes float seconds; nanoseconds keep the stat cache's compare exact.
        for key in ('st_atime', 'st_mtime', 'st_ctime'):
            attrs[key] = attrs.pop(key + '_ns') / 1e9
        return attrs

    def access(self, path, mode):
        if not os.access(self._real(path), mode):
            raise FuseOSError(errno.EACCES)

    def chmod(self, path, mode):
        os.chmod(self._real(path), mode)

    def chown(self, path, uid, gid):
        os.lchown(self._real(path), uid, gid)

    def utimens(self, path, times=None):
        real = self._real(path)
        if times is None:
            os.utime(real, follow_symlinks=False)
        else:
            os.utime(real, ns=tuple(int(t * 1e9) for t in times), follow_symlinks=False)

    def statfs(self, path):
        sv = os.statvfs(self._real(path))
        keys = ('f_bavail', 'f_bfree', 'f_blocks', 'f_bsize', 'f_favail', 'f_ffree', 'f_files',
                'f_flag', 'f_frsize', 'f_namemax')
        return {key: getattr(sv, key) for key in keys}

    # -- folders and links ---------------------------------------------------------------------

    def readdir(self, path, fh):
        return ['.', '..'] + os.listdir(self._real(path))

    def mkdir(self, path, mode):
        target = self._target(path)
        if os.path.lexists(target):
            raise FuseOSError(errno.EEXIST)
        os.mkdir(target, mode)

    def rmdir(self, path):
        os.rmdir(self._real(path))

    def unlink(self, path):
        os.unlink(self._real(path))

    def readlink(self, path):
        return os.readlink(self._real(path))

    def symlink(self, path, target):
        dest = self._target(path)
        if os.path.lexists(dest):
            raise FuseOSError(errno.EEXIST)
        os.symlink(target, dest)

    def link(self, path, target):
        dest = self._target(path)
        if os.path.lexists(dest):
            raise FuseOSError(errno.EEXIST)
        os.link(self._real(target), dest)

    def rename(self, old, new):
        source = self._real(old)
        parent, name = os.path.split(new.rstrip('/'))
        real_parent = self._real(parent)
        existing = self._match(real_parent, name)
        spelled = os.path.join(real_parent, name)
        if existing is not None and existing != source and existing != spelled:
            # Replacing an entry spelled otherwise: the entry goes, the new spelling stays.
            os.rename(source, existing)
            os.rename(existing, spelled)
        else:
            # A new name, a plain replace, or a rename that only changes the spelling.
            os.rename(source, spelled)

    # -- files ---------------------------------------------------------------------------------

    def open(self, path, flags):
        return os.open(self._real(path), flags)

    def create(self, path, mode, fi=None):
        # The flags are not passed on here: read and write, so a shared mapping of it (SQLite's
        # -shm file) can be read back.
        return os.open(self._target(path), os.O_RDWR | os.O_CREAT, mode)

    def read(self, path, size, offset, fh):
        return os.pread(fh, size, offset)

    def write(self, path, data, offset, fh):
        return os.pwrite(fh, data, offset)

    def truncate(self, path, length, fh=None):
        if fh is None:
            os.truncate(self._real(path), length)
        else:
            os.ftruncate(fh, length)

    def flush(self, path, fh):
        return 0

    def release(self, path, fh):
        os.close(fh)

    def fsync(self, path, datasync, fh):
        if datasync:
            os.fdatasync(fh)
        else:
            os.fsync(fh)


def main():
    backing, mount_point = sys.argv[1], sys.argv[2]
    # use_ino: every spelling of a name answers the backing inode, as one file on APFS does.
    # No caching: a name changed through one spelling is seen at once through every other.
    FUSE(FoldFs(backing), mount_point, foreground=False, nothreads=True, use_ino=True,
         entry_timeout=0, attr_timeout=0, negative_timeout=0, default_permissions=True)


if __name__ == '__main__':
    main()
