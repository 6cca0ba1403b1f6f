#!/bin/bash
# Protected files across reboots, on one kept
# disk image, three boots (boot-certs-guest.sh does the work in each):
#   1 installs signed packages with the plugin;
#   2 boots without the loader: reads fail with ENOKEY (the kernel's
#     behaviour, asserted so that a kernel that changes it is noticed);
#   3 runs rpm-verity-load-certs as the system would (macros, drop-in
#     directory, lock, require_signatures): the files read and measure right,
#     binaries run, rpm with the plugin still upgrades, unsigned verity
#     files are refused.
# The loader's report (certificates, keys, time) is printed from boot 3.
# Host side; needs root and QEMU.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/../lib/testlib.sh"
keep_going
needs_qemu
work=$(mktemp -d "${TMPDIR:-/var/tmp}/boot-certs.XXXXXX")
at_exit "rm -rf '$work'"
export RPMVERITY_SCRATCH_IMG=$work/disk.img RPMVERITY_SCRATCH_SIZE=1G
export RPMVERITY_VM_TIMEOUT=${RPMVERITY_VM_TIMEOUT:-300}
for phase in install noloader loader; do
	echo "# boot: $phase"
	"$top/vm/run" "$here/boot-certs-guest.sh" $phase >"$work/$phase.out" 2>&1
	rc=$?
	grep -E '^(ok|FAIL|BAIL|#) |rpm-verity-load-certs: ' "$work/$phase.out" | sed 's/^/  /'
	if [ $rc != 0 ]; then
		tail -40 "$work/$phase.out"
		[ $phase = install ] && bail "boot $phase ended with status $rc"
		fail "boot $phase ended with status $rc"
	else
		ok "boot $phase: every check of the guest passed"
	fi
done
finish boot-certs
