# The harness itself: testlib.sh's finish passes only when a check ran and
# none failed, and check.h's check_report likewise (a test that checked
# nothing proves nothing, and must not pass).
. "$(dirname "$0")/../lib/testlib.sh"
scratch
lib=$TESTLIB_DIR/testlib.sh
# status SCRIPT: the exit status of a test made of SCRIPT.
status() { bash -c ". '$lib'; $1" >/dev/null 2>&1; echo $?; }
check_eq "finish with no check fails" "$(status 'finish')" 1
check_eq "finish NAME with no check fails" "$(status 'finish t')" 1
check_eq "finish after one ok passes" "$(status 'ok x; finish')" 0
check_eq "finish after expect_ok passes" "$(status 'scratch; expect_ok x true; finish')" 0
check_eq "finish after expect_stdout passes" "$(status 'scratch; run echo hi; expect_stdout hi; finish')" 0
check_eq "a failed check after keep_going fails" "$(status 'keep_going; ok x; fail y; finish')" 1
check_eq "a failed expect_ok is not counted as passed" \
	"$(bash -c ". '$lib'; scratch; keep_going; expect_ok x false; echo \$TESTS_PASSED" 2>/dev/null | tail -1)" 0

cat >"$SCRATCH/none.c" <<'C'
#include "check.h"
int main(void) { return check_report(); }
C
cat >"$SCRATCH/one.c" <<'C'
#include "check.h"
int main(void) { CHECK(1 + 1 == 2); return check_report(); }
C
for t in none one; do
	cc -I"$TESTLIB_DIR" -o "$SCRATCH/$t" "$SCRATCH/$t.c" || bail "cannot compile $t.c"
done
check_fails "check_report with no check fails" "$SCRATCH/none"
check "check_report after a passed check passes" "$SCRATCH/one"
finish "$TEST"
