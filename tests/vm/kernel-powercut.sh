#!/bin/bash
# Host side of kernel-powercut (issue 26, kernel-patches/0007): one boot
# enables verity on freshly written files, commits one transaction and is
# killed on its marker (a power cut with the data still unwritten); a second
# boot on the kept scratch disk checks every verity file opens with the
# right digest (kernel-powercut-guest.sh).  Fails on a kernel without 0007,
# where all of them come back with size 0 and open() returns EINVAL.

set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
guest=$here/kernel-powercut-guest.sh
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root for QEMU and mkfs" >&2; exit 77; }
command -v qemu-system-x86_64 >/dev/null || { echo "SKIP: no qemu-system-x86_64" >&2; exit 77; }

work=$(mktemp -d "${TMPDIR:-/var/tmp}/kernel-powercut.XXXXXX")
trap 'rm -rf "$work"' EXIT
export RPMVERITY_SCRATCH_IMG=$work/disk1.img RPMVERITY_SCRATCH_IMG2=$work/disk2.img
export RPMVERITY_SCRATCH_SIZE=${RPMVERITY_SCRATCH_SIZE:-2G}

RPMVERITY_VM_KILL_ON=POWERCUT-NOW "$top/vm/run" "$guest" cut >"$work/cut" 2>&1
rc=$?
grep -E 'POWERCUT|Dirty' "$work/cut"
if [ $rc != 137 ] || ! grep -q POWERCUT-COMMITTED "$work/cut"; then
	cat "$work/cut"
	echo "FAIL: the cut boot ended with status $rc, not killed after its commit" >&2
	exit 1
fi
"$top/vm/run" "$guest" check >"$work/check" 2>&1
rc=$?
grep -E 'POWERCUT|FAIL|SKIP' "$work/check"
if [ $rc != 0 ]; then
	[ $rc = 1 ] || cat "$work/check"
	echo "FAIL: kernel-powercut (check boot status $rc)" >&2
	exit 1
fi
echo "PASS: kernel-powercut"
