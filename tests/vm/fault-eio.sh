#!/bin/bash
# Faults that return errors: an I/O error while fs-verity is being
# enabled. In the guest (vm/run with RPMVERITY_SCRATCH_BLKDEBUG set to
# tests/vm/fault-eio.blkdebug; needs root and QEMU): the first scratch disk
# goes through QEMU's blkdebug driver, and the guest switches "every write
# fails with EIO" on and off with a write-zeroes request outside the
# filesystem. vm-demo-1 is installed with the plugin under enforce, then
# `rpm -U vm-demo-2` runs with the writes failing. FS_IOC_ENABLE_VERITY
# writes the file's data back before it sets the flag (ext4 in its
# end_enable_verity, btrfs since kernel-patches/0007 in begin_enable_verity),
# so the first file's enable meets the error. Checked:
#   - the switch works (a direct write outside the filesystem fails with EIO
#     while it is on, and passes once it is off again);
#   - under enforce the upgrade fails, the error names a file and "Input/
#     output error", vm-demo-1 is still the installed version with verity
#     and the signed digest on every file (read back after dropping the
#     caches, with the writes working again), rpm left no temporary file
#     (any it leaves is described and must yield to rm), and the filesystem
#     still takes writes;
#   - under warn the upgrade installs, with a warning naming each file and
#     the error. What those files hold once the caches are dropped is
#     printed, not checked: the data never reached the disk, which is the
#     kernel's business (rpm does not fsync), and the warning is all the
#     plugin can give;
#   - for comparison, what rpm without the plugin (--noplugins) says and
#     leaves when it goes back to vm-demo-1 with the writes failing (printed,
#     not checked).
# Nothing else may write while the switch is on, or the filesystem itself
# meets the error first, and nothing else may send write-zeroes, which
# would flip the switch: the rpmdb is on the guest's tmpfs, the filesystem
# is made in an image and copied onto the disk, ext4's inode tables and
# journal are zeroed by mkfs and it is mounted with noinit_itable (no
# ext4lazyinit thread zeroing them later with write-zeroes), and both
# are mounted with a 300 s commit interval, so no journal commit or btrfs
# transaction commit falls inside the switch. The switch's state is probed
# with a direct write outside the filesystem each time it is set.
# usage: vm/run fault-eio.sh btrfs|ext4   (RPMVERITY_SCRATCH_BLKDEBUG set)
. "$(dirname "$0")/lib.sh"
fs=${1:?usage: fault-eio.sh btrfs|ext4}
need_build
[ -n "${RPMVERITY_SCRATCH_BLKDEBUG:-}" ] ||
	bail "RPMVERITY_SCRATCH_BLKDEBUG is not set: the scratch disk has no blkdebug rules"
dev=$SCRATCH_DEV
switch_at=$((1 << 30)) # the filesystem ends at 512 MiB; the switch is past it
probe_at=$((switch_at + (1 << 20)))
[ "$(cat "/sys/block/${dev##*/}/queue/write_zeroes_max_bytes")" -gt 0 ] ||
	skip "$dev has no write-zeroes: the guest cannot flip blkdebug's state"

# flip: a write-zeroes request, which flips blkdebug between its states.
# (BLKZEROOUT by hand: blkdiscard opens the device O_EXCL, refused while the
# filesystem is mounted.)
flip() {
	python3 -c 'import fcntl, os, struct, sys
fd = os.open(sys.argv[1], os.O_WRONLY)
fcntl.ioctl(fd, 0x127f, struct.pack("QQ", int(sys.argv[2]), 4096))  # BLKZEROOUT
' "$dev" "$switch_at" || bail "BLKZEROOUT on $dev failed"
}
# probe_write: a direct 4 KiB write outside the filesystem; its error text.
probe_write() {
	dd if=/dev/zero of="$dev" bs=4096 count=1 seek=$((probe_at / 4096)) oflag=direct \
		conv=notrunc status=none 2>&1
}
# faults on|off: failing writes on or off, whatever the state was (anything
# else that sends write-zeroes flips it too, so the state is probed). All
# is written back before the writes start failing; nothing is synced while
# they fail (a sync would commit the journal into the errors).
faults() {
	local i
	[ "$1" = off ] || sync
	for i in 1 2 3; do
		case $1:$(probe_write) in
		on:*"Input/output error"*) return 0 ;;
		off:) return 0 ;;
		esac
		flip
	done
	bail "cannot switch failing writes $1"
}

check "with the switch off a direct write passes" test -z "$(probe_write)"
flip
case $(probe_write) in
*"Input/output error"*) ok "with the switch on a direct write fails with EIO" ;;
*) fail "with the switch on a direct write still passes" ;;
esac
flip
check "with the switch off again a direct write passes" test -z "$(probe_write)"

mnt=/tmp/fault-eio-$fs
mkdir -p "$mnt"
# mkfs on an image on the guest's tmpfs, copied onto the disk: mke2fs zeroes
# the end of a device with write-zeroes, which would flip the switch.
img=/tmp/fault-eio-$fs.img
truncate -s 512M "$img"
case $fs in
btrfs) opts=nodatasum,max_inline=0,commit=300
	mkfs.btrfs -q -f "$img" >/dev/null ;;
ext4) opts=commit=300,noinit_itable
	mkfs.ext4 -q -F -O verity -b 4096 -E lazy_itable_init=0,lazy_journal_init=0 "$img" >/dev/null ;;
*) bail "usage: fault-eio.sh btrfs|ext4" ;;
esac || bail "cannot make $fs on $img"
faults off
dd if="$img" of="$dev" bs=1M conv=sparse,notrunc status=none && rm "$img" && sync ||
	bail "cannot copy $img onto $dev"
mount -o "$opts" "$dev" "$mnt" || bail "cannot mount $fs"
at_exit "umount '$mnt' 2>/dev/null"
ROOT=$mnt
rpmdb_outside
new_root "$mnt"
check "vm-demo-1 installs under enforce" rpmv enforce -i "$PKGS/vm-demo-1.rpm"

echo "# under enforce, every write failing"
dmesg -C
faults on
check_fails "rpm -U vm-demo-2 fails under enforce" rpmv enforce -U "$PKGS/vm-demo-2.rpm"
faults off
check "the error names a file and the I/O error" \
	rpm_said '^error: verity: /[^ ]+: .*Input/output error'
dmesg | grep -iE 'error|verity|btrfs|ext4' | head -8
check_eq "vm-demo-1 is still the installed version" \
	"$(rpm --root "$mnt" --dbpath /var/lib/rpm -q vm-demo)" vm-demo-1-1.x86_64
drop_caches
check "vm-demo-1's files still have verity and the signed digests" installed_check vm-demo vm-demo-1.rpm
check "the file vm-demo-2 adds did not appear" test ! -e "$mnt/usr/share/vm-demo/data-5"
check_temporaries "enforce" "$mnt"
check "the filesystem still takes writes" writable "$mnt"

echo "# under warn, every write failing"
dmesg -C
faults on
check "rpm -U vm-demo-2 installs under warn" rpmv warn -U "$PKGS/vm-demo-2.rpm"
faults off
check "a warning names a file and the I/O error" \
	rpm_said '^warning: verity: /[^ ]+: .*Input/output error'
note "files warned about: $(grep -c '^warning: verity: /.*Input/output error' "$RPM_OUT")"
dmesg | grep -iE 'error|verity|btrfs|ext4' | head -8
check_eq "vm-demo-2 is the installed version" \
	"$(rpm --root "$mnt" --dbpath /var/lib/rpm -q vm-demo)" vm-demo-2-1.x86_64
check_temporaries "warn" "$mnt"
drop_caches
note "vm-demo-2's files as read back from the disk (recorded, not checked):"
installed_check vm-demo vm-demo-2.rpm --expect none
check "the filesystem still takes writes" writable "$mnt"

# The same without the plugin, for comparison (recorded, not checked): rpm
# does not fsync, so it cannot see the errors.
echo "# without the plugin (--noplugins), every write failing: back to vm-demo-1"
faults on
if rpmv warn --noplugins -U --oldpackage "$PKGS/vm-demo-1.rpm"; then
	note "without the plugin rpm reported success"
else
	note "without the plugin rpm failed: $(grep -m1 '^error' "$RPM_OUT")"
fi
faults off
note "installed now: $(rpm --root "$mnt" --dbpath /var/lib/rpm -q vm-demo)"
drop_caches
note "vm-demo-1's files as read back from the disk (recorded, not checked):"
installed_check vm-demo vm-demo-1.rpm --expect none
umount "$mnt/var/lib/rpm"
umount "$mnt" || fail "cannot unmount $mnt"
finish
