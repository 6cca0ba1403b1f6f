#!/bin/bash
# Guest side of boot-signed-root.sh, boot 1 (vm/run, the host's / as root):
# makes a btrfs on SCRATCH_DEV (the kept root image) and installs the signed
# rv-bootroot package into it with the plugin under enforce, so /init, the
# busybox it runs and the data file get fs-verity with their signatures.
# usage: boot-signed-root-guest.sh PACKAGE PAYLOAD-DIR
. "$(dirname "$0")/lib.sh"
pkg=${1:?usage: boot-signed-root-guest.sh PACKAGE PAYLOAD-DIR}
payload=${2:?usage: boot-signed-root-guest.sh PACKAGE PAYLOAD-DIR}
need_build

mnt=/tmp/bootroot
mkfs_mount btrfs "$SCRATCH_DEV" "$mnt"
new_root "$mnt"
check "install the signed root package under enforce" rpmv enforce -i "$pkg"
drop_caches
check "/init, busybox and the data file: verity on, signed digests" \
	check-installed "$mnt" rv-bootroot "$CERT" "$payload"
check "/init has verity" has_verity "$mnt/init"
check "/bin/busybox has verity" has_verity "$mnt/bin/busybox"
# initramfs-tools' init hands the console over through the root's own
# /dev/console before anything mounts /dev there.
mknod -m 600 "$mnt/dev/console" c 5 1 || bail "cannot make $mnt/dev/console"
umount "$mnt" || bail "cannot unmount the root image"
finish
