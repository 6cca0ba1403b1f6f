#!/bin/bash
# Host side of kernel-powercut (kernel-patches/0007): one boot
# enables verity on freshly written files, commits one transaction and is
# killed on its marker (a power cut with the data still unwritten); a second
# boot on the kept scratch disk checks every verity file opens with the
# right digest (kernel-powercut-guest.sh).  On btrfs without 0007 all of them
# come back with size 0 and open() returns EINVAL.
#
# usage: kernel-powercut.sh [btrfs|ext4 [fsync]]   (default btrfs)
#   fsync: fsync each file right after enabling verity, and commit nothing

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
guest=$here/kernel-powercut-guest.sh
fs=${1:-btrfs}
sync_mode=${2:-none}
. "$here/../lib/testlib.sh"
needs_qemu
case $fs in btrfs|ext4) ;; *) bail "unknown filesystem '$fs'" ;; esac

work=$(mktemp -d "${TMPDIR:-/var/tmp}/kernel-powercut.XXXXXX")
at_exit "rm -rf '$work'"
export RPMVERITY_SCRATCH_IMG=$work/disk1.img RPMVERITY_SCRATCH_IMG2=$work/disk2.img
export RPMVERITY_SCRATCH_SIZE=${RPMVERITY_SCRATCH_SIZE:-2G}

RPMVERITY_VM_KILL_ON=POWERCUT-NOW "$top/vm/run" "$guest" cut "$fs" "$sync_mode" >"$work/cut" 2>&1
rc=$?
grep -E 'POWERCUT|Dirty' "$work/cut"
if [ $rc != 137 ] || ! grep -q POWERCUT-COMMITTED "$work/cut"; then
	cat "$work/cut"
	fail "the cut boot ended with status $rc, not killed after its commit"
fi
ok "$fs: killed right after the commit that holds the verity flags"
"$top/vm/run" "$guest" check "$fs" >"$work/check" 2>&1
rc=$?
grep -E 'POWERCUT|FAIL|SKIP' "$work/check"
[ $rc = 0 ] || [ $rc = 1 ] || cat "$work/check"
check_eq "$fs: the check boot's status" "$rc" 0
finish "kernel-powercut ($fs)"
