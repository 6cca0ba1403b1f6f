#!/bin/bash
# Guest half of kernel-powercut: two boots on one kept scratch
# disk.  "cut" writes fresh files without fsync, as rpm does, enables verity
# on them, commits exactly one transaction, prints the marker on which the
# host kills QEMU, and waits.  On btrfs the commit is BTRFS_IOC_START_SYNC
# and BTRFS_IOC_WAIT_SYNC: it neither writes back delalloc nor waits for
# ordered extents, like the transaction kthread's.  On ext4 (data=ordered)
# it is the journal commit that fsync of an unrelated empty file forces,
# which carries the whole running transaction, like the 5 s commit.  Periodic writeback is switched off,
# so the file data is still only in the page cache when the power goes: the
# commit carries whatever the enable itself made durable.  "check" then
# requires every file to open, with verity and its contents; before kernel
# patch 0007 the commit held the verity flag with an inode size of 0 and
# every open fails with EINVAL.  A plain file written alongside must come
# back empty, which proves the cut fell before any writeback.

. "$(dirname "$0")/kernel-lib.sh"
need_guest
mode=${1:?usage: kernel-powercut-guest.sh cut|check btrfs|ext4}
fs=${2:-btrfs}
# "fsync": each file is fsynced right after its enable and no transaction
# is committed, so only btrfs' log tree holds the files when the power goes
# (the second defect of kernel-patches/powercut.md: the log replay restores
# the inode item with the verity flag but not the verity items).
sync_mode=${3:-none}
# Sizes: inline (<= 2048 bytes), one block, unaligned, several extents.
SIZES="1 1000 4096 5000 65536 100000 1048576 3000001"

# gen_files DIR: the deterministic contents, named by size.
gen_files() {
	$PY - "$1" $SIZES <<'PYEOF' || fail "cannot write files in $1"
import hashlib, os, sys
d = sys.argv[1]
for size in map(int, sys.argv[2:]):
    out, i = bytearray(), 0
    while len(out) < size:
        out += hashlib.sha256(b"%d:%d" % (size, i)).digest()
        i += 1
    with open(os.path.join(d, "f%d" % size), "wb") as f:
        f.write(out[:size])
PYEOF
}

if [ "$mode" = cut ]; then
	# No writeback unless someone asks for it: the flusher threads stay idle.
	echo 0 >/proc/sys/vm/dirty_writeback_centisecs &&
		echo 360000 >/proc/sys/vm/dirty_expire_centisecs ||
		fail "cannot switch off periodic writeback"
	# btrfs: no commit by the transaction kthread either (every 30 s by
	# default), which on a slow guest committed some files in the middle of
	# the loop and let them survive on a stock kernel by timing alone
	# (kernel-patches/fstests/RESULTS.md).
	if [ "$fs" = btrfs ]; then
		mount_btrfs "$SCRATCH_DEV" "$MNT" commit=3600
	else
		mount_ext4 "$SCRATCH_DEV" "$MNT"
	fi
	sync
	commits() { cat /sys/fs/btrfs/*/commit_stats 2>/dev/null | sed -n 's/^commits //p'; }
	# bytes of block groups allocated: a new one during the loop makes the
	# log ask for a full commit at the next fsync
	groups() { for t in data metadata system; do printf '%s=%s ' $t "$(cat /sys/fs/btrfs/*/allocation/$t/total_bytes 2>/dev/null)"; done; }
	before=$(commits) groups_before=$(groups)
	mkdir "$MNT/d" && gen_files "$MNT/d" || fail "cannot write the files"
	echo "plain data" >"$MNT/plain" || fail "cannot write $MNT/plain"
	for s in $SIZES; do
		fsverity enable "$MNT/d/f$s" || fail "fsverity enable f$s"
		[ "$sync_mode" = fsync ] && { $PY -c 'import os, sys; os.fsync(os.open(sys.argv[1], os.O_RDONLY))' "$MNT/d/f$s" ||
			fail "fsync f$s"; }
	done
	after=$(commits)
	[ -n "$before" ] && [ -n "$after" ] &&
		echo "POWERCUT-COMMITS $((after - before)) during the loop ($before before it, $after after)"
	[ "$fs" = btrfs ] && echo "POWERCUT-BLOCK-GROUPS before the loop: $groups_before; after: $(groups)"
	[ "$sync_mode" = fsync ] && echo "POWERCUT-COMMITTED nothing: each file fsynced into the log tree"
	[ "$sync_mode" = fsync ] || $PY - "$MNT" "$fs" <<'PYEOF' || fail "could not commit the transaction"
import fcntl, os, struct, sys
mnt, fs = sys.argv[1], sys.argv[2]
if fs == "btrfs":
    # BTRFS_IOC_START_SYNC = _IOR(0x94, 24, u64), BTRFS_IOC_WAIT_SYNC = _IOW(0x94, 22, u64)
    fd = os.open(mnt, os.O_RDONLY)
    buf = bytearray(8)
    fcntl.ioctl(fd, 0x80089418, buf, True)
    fcntl.ioctl(fd, 0x40089416, buf)
    print("POWERCUT-COMMITTED transid %d" % struct.unpack("<Q", buf)[0])
else:
    fd = os.open(os.path.join(mnt, "commit"), os.O_WRONLY | os.O_CREAT, 0o644)
    os.fsync(fd)
    print("POWERCUT-COMMITTED journal commit forced by fsync of an empty file")
PYEOF
	grep -E '^(Dirty|Writeback):' /proc/meminfo | tr -s ' ' | tr '\n' ' '
	echo
	echo "POWERCUT-NOW"
	sleep 60
	fail "the host did not kill the VM"
fi

[ "$mode" = check ] || fail "unknown mode '$mode'"
# What the cut left on disk, before the mount can change anything.
[ "$fs" = btrfs ] && btrfs inspect-internal dump-tree -t fs "$SCRATCH_DEV" 2>/dev/null |
	awk '/key \([0-9]+ INODE_ITEM 0\)/ { ino = substr($4, 2); next }
	     ino && / size / { size = $0 }
	     ino && / flags / { print "POWERCUT-ONDISK inode " ino ":" size ";" $0; ino = "" }' |
	tr -s ' \t' ' '
mkdir -p "$MNT"
mount -t "$fs" "$SCRATCH_DEV" "$MNT" || fail "mount after the cut"
exp=$(mktemp -d)
gen_files "$exp"
bad=0
for s in $SIZES; do
	f=$MNT/d/f$s
	if ! err=$(cat "$f" 2>&1 >/dev/null); then
		echo "POWERCUT-BAD f$s: cannot be read: $err (size $(stat -c %s "$f") in the inode, $(stat -c %s "$exp/f$s") written)"
		bad=$((bad + 1))
	elif ! fsverity measure "$f" >/dev/null 2>&1; then
		echo "POWERCUT-BAD f$s: verity was committed but is gone"
		bad=$((bad + 1))
	elif [ "$(measured "$f")" != "$(expected "$exp/f$s")" ]; then
		echo "POWERCUT-BAD f$s: verity digest differs from the contents written"
		bad=$((bad + 1))
	else
		echo "POWERCUT-OK f$s: opens, size $(stat -c %s "$f"), right digest"
	fi
done
dmesg | grep -m 3 -e "data_size" -e "fs-verity" | sed "s/^/POWERCUT-DMESG /"
plain=$(stat -c %s "$MNT/plain" 2>/dev/null || echo 0)  # fsync mode: not logged, gone
umount "$MNT" || fail "umount"
echo "POWERCUT-RESULT $bad of $(echo $SIZES | wc -w) verity files broken"
if [ "$fs" = btrfs ]; then
	btrfs_check "$SCRATCH_DEV"
else
	e2fsck -fn "$SCRATCH_DEV" >/tmp/kt-check.log 2>&1 ||
		{ cat /tmp/kt-check.log >&2; fail "e2fsck $SCRATCH_DEV found problems"; }
fi
[ "$plain" = 0 ] ||
	fail "the plain file kept its data ($plain bytes): writeback ran before the cut, so this run proves nothing"
[ $bad = 0 ] || fail "$bad verity files cannot be opened after the power cut"
exit 0
