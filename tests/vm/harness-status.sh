#!/bin/bash
# Host-side test of vm/run itself: a failing guest script must make vm/run
# fail with that script's status, and a guest kernel panic must be reported
# as one (status 125), so no VM test can pass by accident.
set -u
run=$(cd "$(dirname "$0")/../.." && pwd)/vm/run
failed=0

out=$("$run" /bin/sh -c 'echo guest-says-hello; exit 3' 2>&1)
status=$?
if [ $status = 3 ] && grep -q guest-says-hello <<<"$out"; then
	echo "ok   - a guest script exiting 3 makes vm/run exit 3, output streamed"
else
	echo "FAIL - guest exit 3: vm/run exited $status"; echo "$out" | tail -20; failed=1
fi

out=$("$run" /bin/sh -c 'echo c >/proc/sysrq-trigger; sleep 30' 2>&1)
status=$?
if [ $status = 125 ] && grep -q 'KERNEL PANIC' <<<"$out"; then
	echo "ok   - a guest kernel panic makes vm/run exit 125 and say so"
else
	echo "FAIL - guest panic: vm/run exited $status"; echo "$out" | tail -20; failed=1
fi
exit $failed
