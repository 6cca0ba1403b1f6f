#!/bin/bash
# End-to-end, in the guest (vm/run): rpm with the verity plugin installs
# packages signed by rpm-verity (or, in vm_e2e_shipped_rpmsign_*, by the
# rpmsign Debian ships: make-shipped-packages.sh) onto a fresh FS (btrfs
# without data checksums, or ext4): every signed file gets verity and the
# signed digest, files read back intact; an upgrade and an erase work
# on verity files and leave nothing behind; a block of an installed
# file changed on the raw device makes reads fail with EIO, mmap fault and
# the corrupted binary refuse to run, while untouched files still read, and
# the kernel log names fs-verity (item 2); the same for the package's file
# smaller than a block, inline in btrfs's metadata by default (item 2b).
# Items 1 and 5 use SCRATCH_DEV, item 2 a fresh filesystem on SCRATCH_DEV2.
# usage: e2e-packages.sh btrfs|ext4
. "$(dirname "$0")/lib.sh"
fs=${1:?usage: e2e-packages.sh btrfs|ext4}
need_build

mnt=/tmp/e2e-$fs
mkfs_mount "$fs" "$SCRATCH_DEV" "$mnt"
new_root "$mnt"

echo "# item 1: install signed vm-demo-1 under enforce"
check "rpm -i of a signed package under enforce" rpmv enforce -i "$PKGS/vm-demo-1.rpm"
# (The root has no boot-time certificate loader: the reboot warning is due.)
check "no verity warnings or errors" \
	bash -c "! grep -v 'unreadable after reboot' $RPM_OUT | grep -qiE 'warning|error'"
drop_caches
check "every signed file (per the rpmdb): verity on, signed digest measured, intact" \
	installed_check vm-demo vm-demo-1.rpm
check "the installed binary runs" "$mnt/usr/bin/vm-demo-true"
check_eq "the installed script runs" "$("$mnt/usr/bin/vm-demo-hello" 2>&1)" "hello from vm-demo"
check_fails "a verity file cannot be opened for writing" bash -c "echo x >>$mnt/usr/share/vm-demo/data-3"

echo "# item 5: upgrade to vm-demo-2, then erase"
check "rpm -U to the newer version" rpmv enforce -U "$PKGS/vm-demo-2.rpm"
drop_caches
check "after the upgrade every signed file matches vm-demo-2" installed_check vm-demo vm-demo-2.rpm
check "the file dropped by version 2 is gone" test ! -e "$mnt/usr/share/vm-demo/data-4"
check_eq "no temporary files left by the upgrade" "$(find "$mnt" -name '*;*' | wc -l)" 0
check "rpm -e" rpmv enforce -e vm-demo
check_eq "nothing left behind after the erase" "$(leftovers "$mnt")" ""

umount "$mnt"

echo "# item 2: tampering underneath the filesystem"
# A fresh filesystem on the second disk: the only copy of each file on it is
# the installed one, so the first hit of a marker is the live data.
mnt=/tmp/e2e-$fs-tamper
mkfs_mount "$fs" "$SCRATCH_DEV2" "$mnt"
new_root "$mnt"
check "install vm-demo-1 on a fresh $fs" rpmv enforce -i "$PKGS/vm-demo-1.rpm"
d=$mnt/usr/share/vm-demo
bin=$mnt/usr/bin/vm-demo-true
sync
# The data file: its first bytes are a marker only it carries.
off=$(find-bytes "$SCRATCH_DEV2" "vmdemo-marker vm-demo data-2 v1") || bail "data-2 not found on $SCRATCH_DEV2"
poke-byte "$SCRATCH_DEV2" $((off + 3000)) ||
	bail "cannot write $SCRATCH_DEV2 under the mounted $fs (CONFIG_BLK_DEV_WRITE_MOUNTED?)"
# The binary: change a byte of its build-id note (harmless to run without
# verity: the ELF loader does not read it).
build_id=$(readelf -n "$bin" | sed -n 's/.*Build ID: //p')
[ -n "$build_id" ] || bail "$bin: no build id"
off=$(find-bytes --hex "$SCRATCH_DEV2" "$build_id") || bail "$bin not found on $SCRATCH_DEV2"
poke-byte "$SCRATCH_DEV2" "$off" || bail "cannot write $SCRATCH_DEV2 under the mounted $fs"
drop_caches
dmesg -C
check "reading the tampered data file fails with EIO" read_fails_eio "$d/data-2"
check "mmap of the tampered data file faults (SIGBUS)" mmap_faults "$d/data-2"
check_fails "the tampered binary does not run" "$bin"
check "untouched files still read and match" bash -c \
	"cmp $d/data-1 $PKGS/payload/vm-demo-1.rpm/usr/share/vm-demo/data-1 &&
	 cmp $d/data-3 $PKGS/payload/vm-demo-1.rpm/usr/share/vm-demo/data-3"
check "the untouched script still runs" "$mnt/usr/bin/vm-demo-hello"
check "the kernel log names fs-verity" kernel_log_has 'fs-verity.*FILE CORRUPTED'
dmesg | grep -iE 'verity|corrupt' | head -5
umount "$mnt"

echo "# item 2b: a file smaller than a block, tampered with underneath"
# On btrfs mounted as it is by default (max_inline=2048) the package's
# 27-byte file "small" is inline: its data is in its leaf of the fs tree,
# not in a block of its own, so it is changed there and the leaf's checksum
# fixed (btrfs-inline-poke); on ext4 it has a block, changed on the device.
mkfs_mount "$fs" "$SCRATCH_DEV2" "$mnt" inline
new_root "$mnt"
check "install vm-demo-1 on a fresh $fs (btrfs: inline files allowed)" rpmv enforce -i "$PKGS/vm-demo-1.rpm"
small=$mnt/usr/share/vm-demo/small
small_text="a small file of vm-demo 1"
check "the small file has verity" has_verity "$small"
ino=$(stat -c %i "$small")
if [ "$fs" = btrfs ]; then
	check "the small file is inline in btrfs's metadata" is_inline "$small"
	umount "$mnt" || bail "umount $mnt"
	# "a small" becomes "X small"
	btrfs-inline-poke "$SCRATCH_DEV2" "$ino" 0 58 | sed 's/^/  /'
	check "its inline byte changed in the leaf, checksum fixed" test "${PIPESTATUS[0]}" = 0
	mount -o nodatasum,max_inline=2048 "$SCRATCH_DEV2" "$mnt" || bail "mount $SCRATCH_DEV2 again"
else
	sync
	off=$(find-bytes "$SCRATCH_DEV2" "$small_text") || bail "the small file is not on $SCRATCH_DEV2"
	poke-byte "$SCRATCH_DEV2" "$off" || bail "cannot write $SCRATCH_DEV2"
fi
drop_caches
dmesg -C
check "reading the tampered small file fails with EIO" read_fails_eio "$small"
check "mmap of the tampered small file faults (SIGBUS)" mmap_faults "$small"
check "the kernel log names fs-verity" kernel_log_has 'fs-verity.*FILE CORRUPTED'
check "untouched files still read and match" \
	cmp "$mnt/usr/share/vm-demo/data-1" "$PKGS/payload/vm-demo-1.rpm/usr/share/vm-demo/data-1"
umount "$mnt"
finish
