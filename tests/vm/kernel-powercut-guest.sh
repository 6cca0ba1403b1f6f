#!/bin/bash
# Guest half of kernel-powercut (issue 26): two boots on one kept scratch
# disk.  "cut" writes fresh files without fsync, as rpm does, enables verity
# on them, commits exactly one transaction with BTRFS_IOC_START_SYNC and
# BTRFS_IOC_WAIT_SYNC (a commit that neither writes back delalloc nor waits
# for ordered extents, like the transaction kthread's), prints the marker on
# which the host kills QEMU, and waits.  Periodic writeback is switched off,
# so the file data is still only in the page cache when the power goes: the
# commit carries whatever the enable itself made durable.  "check" then
# requires every file to open, with verity and its contents; before kernel
# patch 0007 the commit held the verity flag with an inode size of 0 and
# every open fails with EINVAL.  A plain file written alongside must come
# back empty, which proves the cut fell before any writeback.

. "$(dirname "$0")/kernel-lib.sh"
need_guest
mode=${1:?usage: kernel-powercut-guest.sh cut|check}
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
	mount_btrfs "$SCRATCH_DEV" "$MNT"
	sync
	mkdir "$MNT/d" && gen_files "$MNT/d" || fail "cannot write the files"
	echo "plain data" >"$MNT/plain" || fail "cannot write $MNT/plain"
	for s in $SIZES; do
		fsverity enable "$MNT/d/f$s" || fail "fsverity enable f$s"
	done
	$PY - "$MNT" <<'PYEOF' || fail "could not commit the transaction"
import fcntl, os, struct, sys
# BTRFS_IOC_START_SYNC = _IOR(0x94, 24, u64), BTRFS_IOC_WAIT_SYNC = _IOW(0x94, 22, u64)
fd = os.open(sys.argv[1], os.O_RDONLY)
buf = bytearray(8)
fcntl.ioctl(fd, 0x80089418, buf, True)
fcntl.ioctl(fd, 0x40089416, buf)
print("POWERCUT-COMMITTED transid %d" % struct.unpack("<Q", buf)[0])
PYEOF
	grep -E '^(Dirty|Writeback):' /proc/meminfo | tr -s ' ' | tr '\n' ' '
	echo
	echo "POWERCUT-NOW"
	sleep 60
	fail "the host did not kill the VM"
fi

[ "$mode" = check ] || fail "unknown mode '$mode'"
# What the cut left on disk, before the mount can change anything.
btrfs inspect-internal dump-tree -t fs "$SCRATCH_DEV" 2>/dev/null |
	awk '/key \([0-9]+ INODE_ITEM 0\)/ { ino = substr($4, 2); next }
	     ino && / size / { size = $0 }
	     ino && / flags / { print "POWERCUT-ONDISK inode " ino ":" size ";" $0; ino = "" }' |
	tr -s ' \t' ' '
mkdir -p "$MNT"
mount -t btrfs "$SCRATCH_DEV" "$MNT" || fail "mount after the cut"
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
dmesg | grep -m 3 "data_size" | sed "s/^/POWERCUT-DMESG /"
plain=$(stat -c %s "$MNT/plain")
umount "$MNT" || fail "umount"
echo "POWERCUT-RESULT $bad of $(echo $SIZES | wc -w) verity files broken"
btrfs_check "$SCRATCH_DEV"
[ "$plain" = 0 ] ||
	fail "the plain file kept its data ($plain bytes): writeback ran before the cut, so this run proves nothing"
[ $bad = 0 ] || fail "$bad verity files cannot be opened after the power cut"
exit 0
