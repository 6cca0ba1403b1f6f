#!/bin/bash
# Guest half of kernel-enable-crash: run once per boot on the same kept
# scratch disk.  "setup" makes a btrfs with a 40 MiB file and records its
# sha256 and fs-verity digest on the filesystem.  "crash" first checks what
# the previous, killed boot left (btrfs check clean before and after mount,
# the file either without verity and unchanged or with verity and the right
# digest), then starts FS_IOC_ENABLE_VERITY while committing every 0.2 s,
# printing the marker on which the host kills QEMU after a random delay.
# "final" only checks.

. "$(dirname "$0")/kernel-lib.sh"
need_guest
mode=${1:?usage: kernel-enable-crash-guest.sh setup|crash|final}
f=$MNT/file

if [ "$mode" = setup ]; then
	mount_btrfs "$SCRATCH_DEV" "$MNT"
	head -c 40M /dev/urandom >"$f" || fail "cannot write $f"
	sha256sum <"$f" >"$MNT/expected.sha256"
	expected "$f" >"$MNT/expected.digest"
	sync
	t=$(enable_seconds "$f")
	echo "CRASH-SETUP enable took $t s"
	# Start the crash rounds from a file without verity.
	cp "$f" "$f.new" && mv "$f.new" "$f" && sync || fail "cannot renew $f"
	umount "$MNT"
	btrfs_check "$SCRATCH_DEV"
	exit 0
fi

# What the killed boot left: check before the orphan cleanup of the mount.
btrfs_check "$SCRATCH_DEV"
items=$(btrfs inspect-internal dump-tree -t fs "$SCRATCH_DEV" 2>/dev/null |
	grep -c 'VERITY_MERKLE_ITEM')
mkdir -p "$MNT"
mount -t btrfs "$SCRATCH_DEV" "$MNT" || fail "mount after the crash"
[ "$(sha256sum <"$f")" = "$(cat "$MNT/expected.sha256")" ] ||
	fail "contents of $f changed by the crash"
if fsverity measure "$f" >/dev/null 2>&1; then
	[ "$(measured "$f")" = "$(cat "$MNT/expected.digest")" ] ||
		fail "$f has verity with a wrong digest after the crash"
	state=verity
else
	state=plain
fi
umount "$MNT" || fail "umount"
btrfs_check "$SCRATCH_DEV"
echo "CRASH-STATE $state"
echo "CRASH-ITEMS $items Merkle items on disk before the mount"
[ "$mode" = final ] && exit 0

mount -t btrfs "$SCRATCH_DEV" "$MNT" || fail "mount"
if [ $state = verity ]; then
	cp "$f" "$f.new" && mv "$f.new" "$f" || fail "cannot renew $f"
fi
sync
# Commit often during the enable, so that crashes find half-written Merkle
# trees and the orphan item on disk and the next mount must roll them back.
(while :; do sync; sleep 0.2; done) &
echo "CRASH-ENABLE-START"
fsverity enable "$f" || fail "fsverity enable $f"
echo "CRASH-ENABLE-DONE"
# Keep running until the host pulls the plug, so that the commits after the
# enable are hit as well.
sleep 60
fail "the host did not kill the VM"
