#!/bin/bash
# Guest test for kernel-patches 0009 (btrfs: use the global reserve to drop
# verity items on a full filesystem), without rpm.
#
# On a 128 MiB btrfs with mixed block groups, a filler and a 32 MiB file
# written after it, a binary search over the filler (64 KiB pieces) finds
# the level where FS_IOC_ENABLE_VERITY on the file gets past its start (the
# orphan item) and fails with ENOSPC while it writes the Merkle tree
# ("Error -28 building Merkle tree"); here (6.1 and 6.12) it is the third
# try. btrfs then rolls the enable back: it drops the Merkle items it
# inserted and the orphan item. Checked from there:
#   - the enable failed with ENOSPC and left the file without verity;
#   - the rollback did not force the filesystem read-only: without 0009 its
#     reservation fails like the enable's ("failed to drop verity items in
#     rollback"), btrfs_handle_fs_error();
#   - after unmounting, "btrfs check" is clean and no orphan or verity item
#     of the file is left on disk;
#   - the filesystem mounts again read-write, and the orphan cleanup does
#     not fail: without 0009 it fails with ENOSPC dropping the same items,
#     "could not do orphan cleanup -28"; on 6.12 the mount then fails
#     ("open_ctree failed: -28"), on 6.1 btrfs_cleanup_fs_roots() loses the
#     error and the mount goes on with the items left;
#   - with the fillers removed, the same file gets verity and the right
#     digest.
# tests/vm/fault-enospc.sh reaches the same point through rpm -U.

. "$(dirname "$0")/kernel-lib.sh"
. "$(dirname "$0")/fill-lib.sh"
need_guest

mkdir -p "$MNT"
mkfs.btrfs -q -f --mixed -b 128M "$SCRATCH_DEV" >/dev/null || fail "mkfs.btrfs --mixed -b 128M"
mount -o max_inline=0 "$SCRATCH_DEV" "$MNT" || fail "mount the small btrfs"

# logged PATTERN: the kernel log since the last dmesg -C matches (grep -E).
logged() { dmesg | matches -E "$1"; }
free_bytes() { sync; echo $(($(stat -f -c '%a * %S' "$MNT"))); }

# The file is written anew at each fill level, after the filler, so that
# its data takes what it can (as when a package is installed): one filler
# takes the free space down to 4 MiB more than the file, then a binary
# search over the number of 64 KiB pieces besides it finds the level where
# the data fits and the Merkle tree (65 blocks) does not.
need=$((32 << 20)) piece=65536 span=$((4 << 20))
mkdir "$MNT/fill"
bulk=$(($(free_bytes) - need - span))
fallocate -l "$bulk" "$MNT/fill/bulk" || bail "fallocate $bulk bytes"
# fill N: exactly N pieces besides the bulk.
fill() { fill_pieces "$MNT/fill" $piece "$1"; }

# on_disk: the orphan item and the verity items of the file in the leaves
# of the unmounted filesystem, counted.
on_disk() {
	btrfs inspect-internal dump-tree -t fs "$SCRATCH_DEV" 2>/dev/null |
		grep -cE "item [0-9]+ key \(($ino VERITY_(DESC|MERKLE)_ITEM [0-9]+|ORPHAN ORPHAN_ITEM $ino)\)" || true
}

# 0 pieces leave 4 MiB over the file (the enable works), the most leave
# 1 MiB too little (the file cannot be written).
lo=0 hi=$(((span + (1 << 20)) / piece)) tries=0 window=
while [ $((hi - lo)) -gt 1 ]; do
	n=$(((lo + hi) / 2))
	tries=$((tries + 1))
	rm -f "$MNT/big"
	fill "$n" || bail "cannot write $n filler pieces"
	free=$(free_bytes)
	dmesg -C
	if ! (make_file "$MNT/big" 32) 2>/dev/null; then
		outcome="the file does not fit"
		hi=$n
	elif ! sync; then
		bail "sync failed"
	elif fsverity enable "$MNT/big" 2>/tmp/kt-enable.err; then
		outcome="enabled"
		lo=$n
	elif ! grep -q "No space left" /tmp/kt-enable.err; then
		bail "enable failed other than with ENOSPC: $(cat /tmp/kt-enable.err)"
	elif logged 'Merkle|end_enable_verity'; then
		# fs-verity logs a failure after the start: "Error -28 building
		# Merkle tree", or end_enable_verity's when the last Merkle items
		# or the descriptor did not fit.
		outcome="ENOSPC after the start of the enable"
		window=$n
	else
		# Refused at the start (no room for the orphan item): nothing to
		# roll back, and too full.
		outcome="ENOSPC at the start of the enable"
		hi=$n
	fi
	echo "try $tries: $n pieces, $free bytes free ($((free - need)) over the file): $outcome [${SECONDS}s]"
	[ -z "$window" ] || break
done
[ -n "$window" ] || bail "no fill level made the enable fail after its start ($tries tries)"
sum=$(sha256sum <"$MNT/big")
ino=$(stat -c %i "$MNT/big")
# From here every check runs, so that one run shows all that went wrong.
keep_going
dmesg | grep -iE 'verity|btrfs' | grep -iE 'error|fail|read-?only|Merkle' | head -8

fsverity measure "$MNT/big" >/dev/null 2>&1 && fail "the failed enable left verity on"
if logged 'failed to drop verity items in rollback|transaction in verity rollback|forced readonly'; then
	fail "the rollback of the failed enable forced the filesystem read-only"
fi
# Full as it is, a writable btrfs still lets a file be deleted.
grep -qE "^$SCRATCH_DEV $MNT btrfs ro[,\ ]" /proc/mounts &&
	fail "the filesystem is mounted read-only after the failed enable"
rm "$MNT/fill/p0" || fail "cannot delete a filler piece after the failed enable"
[ "$(sha256sum <"$MNT/big")" = "$sum" ] || fail "the file's contents changed"
umount "$MNT" || fail "umount after the failed enable"
btrfs_check "$SCRATCH_DEV"
left=$(on_disk)
echo "orphan and verity items of inode $ino on disk after the failed enable: $left"

dmesg -C
if ! mount "$SCRATCH_DEV" "$MNT"; then
	dmesg | grep -iE 'btrfs' | tail -6
	if mount -o ro "$SCRATCH_DEV" "$MNT"; then
		echo "(read-only it mounts: btrfs_start_pre_rw_mount() is what fails)"
		umount "$MNT"
	fi
	fail "the filesystem does not mount again after the failed enable"
	finish kernel-enospc-rollback
fi
if logged 'could not do orphan cleanup'; then
	dmesg | grep -iE 'btrfs' | tail -4
	fail "the orphan cleanup at mount failed"
fi
[ "$left" = 0 ] || fail "the failed enable left $left orphan or verity items on disk"
[ "$(sha256sum <"$MNT/big")" = "$sum" ] || fail "the file's contents changed after the remount"
fsverity measure "$MNT/big" >/dev/null 2>&1 && fail "verity on after the remount"

rm -rf "$MNT/fill"
sync
fsverity enable "$MNT/big" || fail "enable once the fillers are gone"
[ "$(measured "$MNT/big")" = "$(expected "$MNT/big")" ] || fail "wrong digest after the enable"
umount "$MNT" || fail "final umount"
btrfs_check "$SCRATCH_DEV"
ok "the failed enable rolled back: writable, no items left, mounts again, enables after the fillers go"
finish kernel-enospc-rollback
