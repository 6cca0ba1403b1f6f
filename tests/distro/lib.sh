# Host-side helpers for the distribution's VM tests (sourced, bash): the
# cached distribution and root (distro/build, distro/make-root), a work
# directory with the share the booted system reads, and disk boots of a copy
# of the root through the distribution's initramfs. Checks are
# tests/lib/testlib.sh's, kept going; the guest scripts source the same file
# from the share.
DT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$DT_DIR/../.." && pwd)
. "$DT_DIR/../lib/testlib.sh"
set -uo pipefail
keep_going

[ "$(id -u)" = 0 ] || skip "needs root (QEMU, mkfs in the guest)"
command -v qemu-system-x86_64 >/dev/null || skip "no qemu-system-x86_64"

# distro_setup [--ipe]: $DISTRO (repository), $ROOT_IMG (cached root, the
# IPE one with --ipe), $INITRD, $WORK
# with share/ holding the guest scripts, the harness they source
# (testlib.sh) and the repositories they need.
distro_setup() {
	DISTRO=$("$TOP/distro/build") || bail "distro/build failed"
	ROOT_IMG=$("$TOP/distro/make-root" "$@") || bail "distro/make-root failed"
	INITRD=$DISTRO/initrd.img
	[ "${1:-}" = --ipe ] && INITRD=$DISTRO/initrd-ipe.img
	WORK=$(mktemp -d "${TMPDIR:-/var/tmp}/distro-test.XXXXXX")
	at_exit "rm -rf '$WORK'"
	mkdir "$WORK/share"
	cp "$DT_DIR"/*.guest "$DT_DIR"/*.py "$DT_DIR/probes.sh" "$DT_DIR/systemd-checks.sh" \
		"$DT_DIR/../lib/testlib.sh" "$DISTRO"/*.manifest \
		"$WORK/share/"
	cp -r "$DISTRO/updates" "$DISTRO/untrusted" "$WORK/share/"
	# A self-signed certificate, which the restricted .fs-verity must refuse.
	openssl req -x509 -newkey rsa:2048 -nodes -keyout /dev/null -subj /CN=rogue/ \
		-days 2 -outform DER -out "$WORK/share/rogue-cert.der" 2>/dev/null ||
		bail "openssl could not make a self-signed certificate"
}

# fresh_copy NAME: a private copy of the cached root, $WORK/NAME.img.
fresh_copy() {
	cp --sparse=always "$ROOT_IMG" "$WORK/$1.img" || bail "cannot copy $ROOT_IMG"
}

# same_disk NAME NEXT: $WORK/NEXT.img is NAME's disk (a hard link), for a
# boot after NAME's with a console log of its own.
same_disk() {
	ln -f "$WORK/$1.img" "$WORK/$2.img" || bail "cannot link $WORK/$1.img"
}

# rebooted NAME KIND: boot NAME's job asked for a reboot through systemd;
# boots its disk again and checks the shutdown and the new boot there
# (after-reboot.guest, KIND ima or ipe).
rebooted() {
	said "$1" 'run-job: rebooting through systemd' && ok "boot $1 rebooted through systemd (systemctl reboot)" ||
		fail "boot $1 did not reboot through systemd"
	same_disk "$1" "$1-again"
	disk_boot "$1-again" /run/rvshare/after-reboot.guest "$2"
	grep -E '^(ok|FAIL|BAIL|#) ' "$WORK/$1-again.out" | sed 's/^/  /'
	said "$1-again" 'rpm-verity-load-certs: .* certificate' &&
		ok "the initramfs loaded the certificates again: $(grep -m1 -o 'rpm-verity-load-certs: .* certificate.*' "$WORK/$1-again.out")" ||
		fail "no word of the certificates from the initramfs in the second boot"
	passed_under_policy "$1-again" "distro after-reboot $2" "the boot after the reboot, and the shutdown before it"
}

# disk_boot NAME [COMMAND...]: boots $WORK/NAME.img through the initramfs;
# the console in $WORK/NAME.out, vm/run's status in $rc. $DT_APPEND: more
# kernel arguments.
disk_boot() {
	local name=$1; shift
	env -u RPMVERITY_SCRATCH_IMG -u RPMVERITY_SCRATCH_IMG2 RPMVERITY_SCRATCH_SIZE=64M \
		RPMVERITY_VM_ROOT_IMG="$WORK/$name.img" RPMVERITY_VM_INITRD="$INITRD" \
		RPMVERITY_VM_SHARE="$WORK/share" RPMVERITY_VM_TIMEOUT=${RPMVERITY_VM_TIMEOUT:-600} \
		RPMVERITY_VM_APPEND="rd.shell=0 rd.emergency=poweroff ${DT_APPEND:-}" \
		"$TOP/vm/run" "$@" >"$WORK/$name.out" 2>&1
	rc=$?
}
said() { grep -qE -- "$2" "$WORK/$1.out"; }

# SYSTEMD_UP: what run-job prints on the console when systemd started it.
SYSTEMD_UP='run-job: booted in [0-9.]+s by /usr/lib/systemd/systemd, rpm-verity distro'

# passed_under_policy NAME SUITE WHAT: in boot NAME systemd brought the
# root up and ran the job, and its guest script reported "PASS: SUITE"
# (checked as WHAT); else the console's end is shown and both fail.
passed_under_policy() {
	said "$1" "$SYSTEMD_UP" && ok "systemd brought the root up under the policy: $(grep -m1 -oE "${SYSTEMD_UP}[^;]*" "$WORK/$1.out")" ||
		fail "no word from run-job that systemd brought the root up"
	if [ $rc = 0 ] && said "$1" "PASS: $2\$"; then
		ok "$3"
	else
		tail -40 "$WORK/$1.out"; fail "$3 (vm/run status $rc)"
	fi
}
