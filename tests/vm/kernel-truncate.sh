#!/bin/bash
# Guest test for kernel-patches 0001 (btrfs: refuse size changes of verity
# files in setattr): truncate(2) on the path of a verity file on btrfs must
# fail with EPERM and leave the file intact, while chmod, chown and utimes
# still work.  Fails on a kernel without the patch, where the size changes.

. "$(dirname "$0")/kernel-lib.sh"
need_guest

mount_btrfs "$SCRATCH_DEV" "$MNT"
f=$MNT/file
make_file "$f" 1
before=$(sha256sum <"$f")
fsverity enable "$f" || fail "fsverity enable $f"
digest=$(measured "$f")

$PY - "$f" <<'PYEOF' || fail "setattr on a verity file behaves wrongly"
import errno, os, sys
path = sys.argv[1]
size = os.stat(path).st_size
for new in (100, 0, size + 4096):
    try:
        os.truncate(path, new)
    except OSError as e:
        if e.errno != errno.EPERM:
            sys.exit("truncate(%s, %d): %s, expected EPERM" % (path, new, e))
    else:
        sys.exit("truncate(%s, %d) succeeded on a verity file (size now %d)"
                 % (path, new, os.stat(path).st_size))
if os.stat(path).st_size != size:
    sys.exit("size of %s changed to %d" % (path, os.stat(path).st_size))
os.chmod(path, 0o600)
if os.stat(path).st_mode & 0o777 != 0o600:
    sys.exit("chmod did not change the mode of %s" % path)
os.chown(path, 1234, 5678)
st = os.stat(path)
if (st.st_uid, st.st_gid) != (1234, 5678):
    sys.exit("chown did not change the owner of %s" % path)
os.utime(path, (1000000000, 1000000000))
if os.stat(path).st_mtime != 1000000000:
    sys.exit("utime did not change the mtime of %s" % path)
print("truncate refused with EPERM; chmod, chown, utime work")
PYEOF

# Still a good verity file, in memory and after a remount.
echo 3 >/proc/sys/vm/drop_caches
[ "$(sha256sum <"$f")" = "$before" ] || fail "contents of $f changed"
umount "$MNT" && mount -t btrfs "$SCRATCH_DEV" "$MNT" || fail "remount"
[ "$(sha256sum <"$f")" = "$before" ] || fail "contents of $f changed after remount"
[ "$(measured "$f")" = "$digest" ] || fail "digest of $f changed"
ok "truncate refused, the file's contents and digest kept across a remount"
umount "$MNT"
finish kernel-truncate
