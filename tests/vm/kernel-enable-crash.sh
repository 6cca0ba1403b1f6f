#!/bin/bash
# Host-side crash test for the btrfs verity patches (kernel-patches 0003-
# 0005): kills the VM at random moments during FS_IOC_ENABLE_VERITY of a
# 40 MiB file on btrfs, KT_CRASHES times (default 20), on one kept scratch
# disk.  After every kill the next boot checks that the filesystem mounts,
# "btrfs check" is clean and the file is either without verity and
# unchanged, or has verity and the right digest (kernel-enable-crash-guest.sh).
# Slow (a boot per crash): ctest label vm-slow.

set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
guest=$here/kernel-enable-crash-guest.sh
crashes=${KT_CRASHES:-20}
. "$here/../lib/testlib.sh"
needs_qemu

work=$(mktemp -d "${TMPDIR:-/var/tmp}/kernel-enable-crash.XXXXXX")
at_exit "rm -rf '$work'"
export RPMVERITY_SCRATCH_IMG=$work/disk1.img RPMVERITY_SCRATCH_IMG2=$work/disk2.img
export RPMVERITY_SCRATCH_SIZE=${RPMVERITY_SCRATCH_SIZE:-2G}

vm() { "$top/vm/run" "$guest" "$@" >"$work/out" 2>&1; }

vm setup || { cat "$work/out"; fail "setup boot"; }
enable=$(sed -n 's/.*CRASH-SETUP enable took \([0-9.]*\) s.*/\1/p' "$work/out" | tail -1)
[ -n "$enable" ] || { cat "$work/out"; fail "setup reported no enable time"; }
# Kill anywhere from the start of the enable to well after its end (the
# guest may run slower than during setup; after the end the commit is hit).
span=$(awk -v t="$enable" 'BEGIN { printf "%.3f", t * 2 + 1 }')
echo "enable takes $enable s; killing at random within $span s"

declare -A seen
for ((i = 1; i <= crashes; i++)); do
	delay=$(awk -v s="$span" -v r="$RANDOM" 'BEGIN { printf "%.3f", s * r / 32767 }')
	RPMVERITY_VM_KILL_ON=CRASH-ENABLE-START RPMVERITY_VM_KILL_DELAY=$delay vm crash
	rc=$?
	state=$(sed -n 's/.*CRASH-STATE \([a-z]*\).*/\1/p' "$work/out" | tail -1)
	items=$(sed -n 's/.*CRASH-ITEMS \([0-9]*\).*/\1/p' "$work/out" | tail -1)
	done=$(grep -c CRASH-ENABLE-DONE "$work/out")
	if [ $rc != 137 ]; then
		cat "$work/out"
		fail "crash boot $i ended with status $rc instead of being killed"
	fi
	ok "crash boot $i killed during or after the enable"
	seen[$state]=1
	echo "boot $i: found $state (${items:-?} Merkle items on disk before mount); then killed $delay s into the enable (enable had finished: $([ "$done" = 0 ] && echo no || echo yes))"
done
vm final || { cat "$work/out"; fail "check after the last crash"; }
ok "the final boot found every file consistent"
echo "final boot: found $(sed -n 's/.*CRASH-STATE \([a-z]*\).*/\1/p' "$work/out" | tail -1)"
finish "kernel-enable-crash ($crashes crashes; states seen: ${!seen[*]})"
