#!/bin/bash
# Only signed code runs in the distribution. Boots a copy
# of its root (every file with fs-verity and its package's IMA signature in
# security.ima) through its initramfs, which puts the distribution's IMA
# certificate onto .ima and writes distribution-keys' IMA policy before the
# root's init runs; ima.guest then shows the policy in force, the signed
# system working under it, and a binary, a #! script and a library written
# by hand under /usr/local refused with EACCES, named in the kernel log, and
# the same on every writable filesystem, through ld.so and from a
# memfd. A second boot with rd.rpm-verity.ima=0 shows the same binary
# running without the policy, on /tmp and from a memfd too. Between the
# two, the first boot's disk boots again after its job rebooted it through
# systemd (after-reboot.guest: nothing refused in the shutdown or the next
# boot). Host side; needs root and QEMU; boots three times.
. "$(dirname "$0")/lib.sh"
distro_setup
show() { grep -E '^(ok|FAIL|BAIL|#) ' "$WORK/$1.out" | sed 's/^/  /'; }

fresh_copy ima
disk_boot ima /run/rvshare/ima.guest
show ima
said ima 'rpm-verity-load-ima-certs: .*: key .* on \.ima' &&
	ok "the initramfs put the IMA certificate on .ima: $(grep -m1 -o 'rpm-verity-load-ima-certs: .*on \.ima' "$WORK/ima.out")" ||
	fail "no word of the IMA certificate from the initramfs"
said ima 'rpm-verity: IMA policy loaded' && ok "the initramfs wrote the IMA policy before switching root" ||
	fail "no word of the IMA policy from the initramfs"
passed_under_policy ima "distro ima" "test 5 in the booted distribution"
rebooted ima ima

fresh_copy off
DT_APPEND=rd.rpm-verity.ima=0 disk_boot off /run/rvshare/ima.guest off
show off
if [ $rc = 0 ] && said off 'PASS: distro ima off'; then
	ok "booted with rd.rpm-verity.ima=0: no policy, and the hand-made binary runs"
else
	tail -30 "$WORK/off.out"; fail "the boot without the IMA policy (vm/run status $rc)"
fi
finish distro-ima
