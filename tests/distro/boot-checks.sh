#!/bin/bash
# Boots a copy of the distribution's root (dnf
# installed it with the verity plugin, distro/make-root) through its
# initramfs, and runs boot-checks.guest under systemd, the root's init: every
# packaged file protected with its signed digest, dnf upgrade from the
# updates repository, a package of an untrusted key refused by dnf.
# Host side; needs root and QEMU; builds the distribution and its root on
# first use (cached), then boots once.
. "$(dirname "$0")/lib.sh"
distro_setup
fresh_copy root
disk_boot root /run/rvshare/boot-checks.guest
grep -E '^(ok|FAIL|BAIL|#) ' "$WORK/root.out" | sed 's/^/  /'
if [ $rc = 0 ] && said root 'PASS: distro boot-checks'; then
	ok "the booted distribution passed its checks"
else
	tail -40 "$WORK/root.out"; fail "boot-checks in the booted distribution (vm/run status $rc)"
fi
said root "$SYSTEMD_UP" && ok "systemd brought the root up and ran the job" ||
	fail "no word from run-job that systemd brought the root up"
finish distro-boot-checks
