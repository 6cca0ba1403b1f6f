#!/bin/bash
# End-to-end, in the guest (vm/run), on btrfs: the plugin's policies against
# the kernel's keyring. A package signed with a key the .fs-verity keyring does
# not trust is refused under enforce and installed with a warning (no verity)
# under warn. With fs.verity.require_signatures=1 an unsigned
# package is refused under enforce and the kernel itself refuses an unsigned
# enable, while a signed package still installs (item 4). Signatures broken
# inside their PKCS#7 shell, or moved to other files, are refused by the
# kernel and reported with the file's name.
. "$(dirname "$0")/lib.sh"
need_build

mnt=/tmp/e2e-policy
mkfs_mount btrfs "$SCRATCH_DEV" "$mnt"
new_root "$mnt"

echo "# item 3: signed with a key the keyring does not trust"
check_fails "enforce refuses vm-other (untrusted key)" rpmv enforce -i "$PKGS/vm-other-1.rpm"
check "the refusal comes from verity" rpm_said 'verity: .*(rejected|not trusted|ENOKEY|EKEYREJECTED|key|signature)'
check_fails "vm-other is not in the rpmdb" rpm --root "$mnt" --dbpath /var/lib/rpm -q vm-other
check_eq "none of its files appeared" "$(leftovers "$mnt")" ""
echo "# signatures the plugin passes on and the kernel refuses"
check_fails "enforce refuses vm-demo with signatures broken inside" rpmv enforce -i "$PKGS/vm-badsig-1.rpm"
check "the kernel could not parse it, and the file is named" \
	rpm_said '^error: verity: /[^ ]+: signature rejected: the kernel cannot parse it'
check_fails "enforce refuses vm-demo with each signature on another file" rpmv enforce -i "$PKGS/vm-swapsig-1.rpm"
check "the signature does not match, and the file is named" \
	rpm_said "^error: verity: /[^ ]+: signature rejected: it does not match the file's contents"
check_fails "neither is in the rpmdb" rpm --root "$mnt" --dbpath /var/lib/rpm -q vm-demo
check_eq "none of their files appeared" "$(leftovers "$mnt")" ""
check "warn installs vm-other" rpmv warn -i "$PKGS/vm-other-1.rpm"
check "with a warning naming verity" rpm_said '^warning: verity: '
check "its files are intact, without verity" installed_check vm-other vm-other-1.rpm --expect none
check "the trusted vm-demo-1 still gets verity" rpmv enforce -i "$PKGS/vm-demo-1.rpm"
check "vm-demo-1's files have verity and the signed digests" installed_check vm-demo vm-demo-1.rpm

echo "# item 4: fs.verity.require_signatures=1"
RPMV_DEFINES=(--define "_fsverity_require_signatures 1")
check_fails "enforce refuses the unsigned vm-plain" rpmv enforce -i "$PKGS/vm-plain-1.rpm"
check "the refusal comes from verity" rpm_said 'verity: .*(no fs-verity|signature)'
check_fails "vm-plain is not in the rpmdb" rpm --root "$mnt" --dbpath /var/lib/rpm -q vm-plain
check_eq "the plugin set require_signatures" "$(cat /proc/sys/fs/verity/require_signatures)" 1
echo 1 >/proc/sys/fs/verity/require_signatures
echo unsigned >"$mnt/unsigned-file"
check_fails "the kernel refuses an unsigned fsverity enable" fsverity enable "$mnt/unsigned-file"
check "signed vm-demo upgrade still installs" rpmv enforce -U "$PKGS/vm-demo-2.rpm"
check "vm-demo-2's files have verity and the signed digests" installed_check vm-demo vm-demo-2.rpm
umount "$mnt"
finish
