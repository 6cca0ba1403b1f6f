#!/bin/bash
# Host-side test of vm/run itself: a failing guest script must make vm/run
# fail with that script's status, and a guest kernel panic must be reported
# as one (status 125), so no VM test can pass by accident. Also the
# instruction-counted clock the benchmarks use boots, on one vCPU.
set -u
run=$(cd "$(dirname "$0")/../.." && pwd)/vm/run
. "$(dirname "$0")/../lib/testlib.sh"
keep_going

out=$("$run" /bin/sh -c 'echo guest-says-hello; exit 3' 2>&1)
status=$?
if [ $status = 3 ] && grep -q guest-says-hello <<<"$out"; then
	ok "a guest script exiting 3 makes vm/run exit 3, output streamed"
else
	fail "guest exit 3: vm/run exited $status"; echo "$out" | tail -20
fi

out=$("$run" /bin/sh -c 'echo c >/proc/sysrq-trigger; sleep 30' 2>&1)
status=$?
if [ $status = 125 ] && grep -q 'KERNEL PANIC' <<<"$out"; then
	ok "a guest kernel panic makes vm/run exit 125 and say so"
else
	fail "guest panic: vm/run exited $status"; echo "$out" | tail -20
fi
out=$(RPMVERITY_VM_ICOUNT=shift=0 "$run" /bin/sh -c 'echo "cpus=$(nproc)"' 2>&1)
status=$?
if [ $status = 0 ] && grep -q 'tcg, icount shift=0' <<<"$out" && grep -q '^cpus=1' <<<"$out"; then
	ok "RPMVERITY_VM_ICOUNT boots a one-vCPU TCG guest with -icount"
else
	fail "icount guest: vm/run exited $status"; echo "$out" | tail -20
fi

out=$(RPMVERITY_VM_ICOUNT=shift=0 RPMVERITY_ACCEL=kvm "$run" /bin/true 2>&1)
status=$?
if [ $status = 2 ] && grep -q 'needs TCG' <<<"$out"; then
	ok "RPMVERITY_VM_ICOUNT with RPMVERITY_ACCEL=kvm is refused with a reason"
else
	fail "icount with kvm: vm/run exited $status"; echo "$out" | tail -20
fi
finish
