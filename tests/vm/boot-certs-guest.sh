#!/bin/bash
# Guest side of boot-certs.sh: one phase per boot, on the same kept disk
# (SCRATCH_DEV, RPMVERITY_SCRATCH_IMG).
#   install   boot 1: btrfs, vm-demo-1 installed with the plugin under
#             enforce; an unsigned file given fs-verity too (for test 5);
#             the plugin restricted .fs-verity before loading: a
#             self-signed certificate is refused, one the kernel's CA signed
#             is taken, and the restriction cannot be replaced
#   noloader  boot 2 without the loader (test 2): reads fail with ENOKEY and
#             the kernel says the keyring is empty
#   loader    boot 3 (tests 1, 4, 5): rpm-verity-load-certs as the system
#             runs it, configured by rpm macros (~/.rpmmacros: the cert, lock,
#             require_signatures) and the drop-in directory (under --root),
#             where a self-signed certificate was dropped: refused, named,
#             exit 1, the others loaded;
#             then every protected file reads and measures right and its
#             binary runs, the keyring is locked, rpm with the plugin still
#             upgrades and installs, require_signatures is 1, the unsigned
#             verity file is refused and a new unsigned enable too
# usage: boot-certs-guest.sh install|noloader|loader
. "$(dirname "$0")/lib.sh"
phase=${1:?usage: boot-certs-guest.sh install|noloader|loader}
need_build
LOADER=$BUILD/boot/rpm-verity-load-certs
mnt=/tmp/boot-certs
unsigned=$mnt/unsigned-verity

mount_kept() {
	mkdir -p "$mnt"
	mount -o nodatasum,max_inline=0 "$SCRATCH_DEV" "$mnt" || bail "cannot mount the kept disk"
	ROOT=$mnt
}
# read_err FILE: the error reading FILE gives ("" when it reads).
read_err() { cat "$1" 2>&1 >/dev/null | sed 's/.*: //'; }

case $phase in
install)
	mkfs_mount btrfs "$SCRATCH_DEV" "$mnt"
	new_root "$mnt"
	check "boot 1: rpm -i vm-demo-1 under enforce (the plugin loads the cert)" \
		rpmv enforce -i "$PKGS/vm-demo-1.rpm"
	check "boot 1: every signed file has verity and the signed digest" \
		installed_check vm-demo vm-demo-1.rpm
	head -c 100000 /dev/urandom >"$unsigned"
	check "boot 1: an unsigned file with fs-verity (allowed: require_signatures is 0)" \
		fsverity enable "$unsigned"
	echo "# the keyring takes only certificates the kernel's trusted keys signed"
	check_eq "boot 1: the plugin loaded the certificate" \
		"$(keyctl rlist %:.fs-verity | wc -w)" 1
	check "boot 1: the plugin restricted the keyring: it cannot be restricted again (EEXIST)" \
		bash -c "! keyctl restrict_keyring %:.fs-verity 2>/tmp/restrict.err && grep -q 'File exists' /tmp/restrict.err"
	check "boot 1: root cannot add a self-signed certificate (ENOKEY)" \
		bash -c "! keyctl padd asymmetric '' %:.fs-verity <'$PKGS/rogue/cert.der' 2>/tmp/padd.err && grep -q 'Required key not available' /tmp/padd.err"
	check "boot 1: one the kernel's CA signed is taken (a restriction to trusted keys, not a lock)" \
		bash -c "keyctl padd asymmetric '' %:.fs-verity <'$PKGS/untrusted/cert.der'"
	check_eq "boot 1: .fs-verity holds those two" "$(keyctl rlist %:.fs-verity | wc -w)" 2
	umount "$mnt" || bail "cannot unmount"
	;;
noloader)
	mount_kept
	dmesg -C
	check_eq "boot 2 (no loader): a protected file fails with ENOKEY" \
		"$(read_err "$mnt/usr/share/vm-demo/data-1")" "Required key not available"
	check_fails "boot 2: the protected binary does not run" "$mnt/usr/bin/vm-demo-true"
	check "boot 2: the kernel says the keyring is empty" \
		kernel_log_has 'fs-verity keyring is empty, rejecting signed file'
	check_eq "boot 2: the unsigned verity file still reads" "$(read_err "$unsigned")" ""
	umount "$mnt"
	;;
loader)
	# The configuration a system would have: macros and the drop-in directory.
	# (--root /tmp/sysroot: the configured files are read under it.)
	mkdir -p "$HOME" /tmp/sysroot/etc/pki/rpm-verity /tmp/sysroot/etc/pki/vendor
	cp "$CERT" /tmp/sysroot/etc/pki/vendor/cert.pem
	cat >"$HOME/.rpmmacros" <<-MACROS
	%_fsverity_certs /etc/pki/vendor/cert.pem
	%_fsverity_lock_keyring 1
	%_fsverity_require_signatures 1
	MACROS
	cp "$PKGS/trusted/cert.der" /tmp/sysroot/etc/pki/rpm-verity/vm-test.der
	echo "not a certificate" >/tmp/sysroot/etc/pki/rpm-verity/README
	# What an attacker with root would drop there to have their packages trusted.
	rogue=/tmp/sysroot/etc/pki/rpm-verity/zz-rogue.der
	cp "$PKGS/rogue/cert.der" "$rogue"
	check_eq "boot 3: --print-config: macros, then the drop-in directory, then the switches" \
		"$("$LOADER" --root /tmp/sysroot --print-config | tr '\n' ' ')" \
		"cert /tmp/sysroot/etc/pki/vendor/cert.pem cert /tmp/sysroot/etc/pki/rpm-verity/vm-test.der cert $rogue trust builtin_and_secondary_trusted lock 1 require-signatures 1 "
	check_fails "boot 3: --check before loading says the certificate is missing" \
		"$LOADER" --root /tmp/sysroot --check
	"$LOADER" --root /tmp/sysroot -v 2>&1 | tee /tmp/loader.out
	check_eq "boot 3: rpm-verity-load-certs fails (exit 1): a certificate was refused" "${PIPESTATUS[0]}" 1
	check "boot 3: it names the self-signed certificate and the reason" \
		grep -qF "certificate $rogue not loaded: not signed by a key the kernel trusts (its builtin or secondary trusted keyring)" /tmp/loader.out
	check "boot 3: it reports 3 certificates, 1 added, 1 already there, 1 failed, locked, require_signatures" \
		grep -q '3 certificates from 3 files: 1 added, 1 already present, 1 failed; keyring locked, require_signatures set; .fs-verity holds 1 key ' /tmp/loader.out
	rm "$rogue"
	check "boot 3: --check now says loaded" "$LOADER" --root /tmp/sysroot --check
	check "boot 3: a second run adds nothing and succeeds (locked, already present)" \
		bash -c "'$LOADER' --root /tmp/sysroot 2>&1 | grep -q '0 added, 2 already present'"

	mount_kept
	drop_caches
	echo "# test 1: protected files after the reboot"
	check "every protected file reads, measures the signed digest" \
		installed_check vm-demo vm-demo-1.rpm
	check "the protected binary runs" "$mnt/usr/bin/vm-demo-true"
	check_eq "the protected script runs" "$("$mnt/usr/bin/vm-demo-hello" 2>&1)" "hello from vm-demo"

	echo "# test 4: keyring locked at boot, rpm still installs and upgrades"
	check_fails "no key can be added to the locked keyring" \
		bash -c "keyctl padd asymmetric '' %keyring:.fs-verity <'$PKGS/untrusted/cert.der'"
	RPMV_DEFINES=(--define "_fsverity_lock_keyring 1" --define "_fsverity_require_signatures 1")
	check "rpm -U vm-demo-2 with the plugin (cert already there, keyring locked)" \
		rpmv enforce -U "$PKGS/vm-demo-2.rpm"
	check "no keyring error from the plugin" \
		bash -c "! grep -v 'unreadable after reboot' $RPM_OUT | grep -qiE 'keyring|certificate'"
	check "the plugin warns: this root has no boot-time loader" \
		rpm_said 'protected files will be unreadable after reboot until the certificate is loaded'
	mkdir -p "$mnt/usr/lib/systemd/system"
	: >"$mnt/usr/lib/systemd/system/rpm-verity-load-certs.service"
	check "rpm -U --replacepkgs once the root has the systemd unit" \
		rpmv enforce -U --replacepkgs "$PKGS/vm-demo-2.rpm"
	check "no reboot warning then" bash -c "! grep -q 'unreadable after reboot' $RPM_OUT"
	drop_caches
	check "after the upgrade every signed file matches vm-demo-2" \
		installed_check vm-demo vm-demo-2.rpm
	check_fails "a package signed by an unloaded key is refused under enforce" \
		rpmv enforce -i "$PKGS/vm-other-1.rpm"

	echo "# test 5: require_signatures=1 set at boot"
	check_eq "fs.verity.require_signatures is 1" "$(cat /proc/sys/fs/verity/require_signatures)" 1
	check_eq "the unsigned verity file from boot 1 is refused" \
		"$(read_err "$unsigned")" "Operation not permitted"
	head -c 10000 /dev/urandom >"$mnt/unsigned-new"
	check_fails "a new unsigned fs-verity enable is refused" fsverity enable "$mnt/unsigned-new"
	check "signed files still read" cmp "$mnt/usr/share/vm-demo/data-1" \
		"$PKGS/payload/vm-demo-2.rpm/usr/share/vm-demo/data-1"
	umount "$mnt"
	;;
*) bail "unknown phase $phase" ;;
esac
finish
