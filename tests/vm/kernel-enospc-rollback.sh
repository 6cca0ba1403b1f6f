#!/bin/bash
# Guest test for kernel-patches 0009 (btrfs: use the global reserve to drop
# verity items on a full filesystem), without rpm.
#
# A 128 MiB btrfs with mixed block groups holds a 32 MiB file and is filled
# to the brim, then emptied 256 KiB at a time until FS_IOC_ENABLE_VERITY on
# the file gets past its start (the orphan item) and fails with ENOSPC while
# it writes the Merkle tree ("Error -28 building Merkle tree"). btrfs then
# rolls the enable back: it drops the Merkle items it inserted and the
# orphan item. Checked from there:
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
need_guest

mkdir -p "$MNT"
mkfs.btrfs -q -f --mixed -b 128M "$SCRATCH_DEV" >/dev/null || fail "mkfs.btrfs --mixed -b 128M"
mount -o max_inline=0 "$SCRATCH_DEV" "$MNT" || fail "mount the small btrfs"
make_file "$MNT/big" 32
sync
sum=$(sha256sum <"$MNT/big")
ino=$(stat -c %i "$MNT/big")

# Fill: 1 MiB pieces until none fits, then 64 KiB pieces.
mkdir "$MNT/fill"
i=0
while fallocate -l 1M "$MNT/fill/m$i" 2>/dev/null; do i=$((i + 1)); done
k=0
while fallocate -l 64K "$MNT/fill/k$k" 2>/dev/null; do k=$((k + 1)); done
sync
echo "filled: $i pieces of 1 MiB, $k of 64 KiB, $(($(stat -f -c '%a * %S' "$MNT"))) bytes free"

# logged PATTERN: the kernel log since the last dmesg -C matches (grep -E).
logged() { dmesg | matches -E "$1"; }

# on_disk: the orphan item and the verity items of the file on the
# unmounted filesystem, counted.
on_disk() {
	btrfs inspect-internal dump-tree -t fs "$SCRATCH_DEV" 2>/dev/null |
		grep -cE "key \($ino VERITY_(DESC|MERKLE)_ITEM |key \(ORPHAN ORPHAN_ITEM $ino\)" || true
}

# Free 256 KiB at a time (64 KiB pieces first, then 1 MiB ones) until the
# enable fails in the Merkle tree; an enable refused at its start (no room
# for the orphan item) has nothing to roll back.
tries=0 window=
while [ -z "$window" ]; do
	tries=$((tries + 1))
	[ "$tries" -le 64 ] || bail "no fill level made the Merkle tree fail ($tries tries)"
	dmesg -C
	if fsverity enable "$MNT/big" 2>/tmp/kt-enable.err; then
		bail "the enable worked before any fill level made it fail in the Merkle tree (try $tries)"
	fi
	grep -q "No space left" /tmp/kt-enable.err ||
		bail "enable failed other than with ENOSPC: $(cat /tmp/kt-enable.err)"
	# fs-verity logs a failure after the start: "Error -28 building Merkle
	# tree", or end_enable_verity's when the last Merkle items or the
	# descriptor did not fit.
	if logged 'Merkle|end_enable_verity'; then
		window=$tries
		break
	fi
	n=0
	while [ $n -lt 4 ] && [ "$k" -gt 0 ]; do
		k=$((k - 1)); rm "$MNT/fill/k$k"; n=$((n + 1))
	done
	if [ $n = 0 ]; then
		i=$((i - 1)); rm "$MNT/fill/m$i"
	fi
	sync
done
free=$(($(stat -f -c '%a * %S' "$MNT")))
# From here every check runs, so that one run shows all that went wrong.
keep_going
echo "try $tries: ENOSPC after the start of the enable, $free bytes free before the enable"
dmesg | grep -iE 'verity|btrfs' | grep -iE 'error|fail|read-?only|Merkle' | head -8

fsverity measure "$MNT/big" >/dev/null 2>&1 && fail "the failed enable left verity on"
if logged 'failed to drop verity items in rollback|transaction in verity rollback|forced readonly'; then
	fail "the rollback of the failed enable forced the filesystem read-only"
fi
touch "$MNT/writable" 2>/dev/null || fail "the filesystem no longer takes writes after the failed enable"
rm -f "$MNT/writable"
[ "$(sha256sum <"$MNT/big")" = "$sum" ] || fail "the file's contents changed"
umount "$MNT" || fail "umount after the failed enable"
btrfs_check "$SCRATCH_DEV"
left=$(on_disk)
echo "orphan and verity items of inode $ino on disk after the failed enable: $left"

dmesg -C
if ! mount -o max_inline=0 "$SCRATCH_DEV" "$MNT"; then
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
finish kernel-enospc-rollback
