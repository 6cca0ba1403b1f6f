#!/bin/bash
# rpm-verity-run on the host, as any user: usage errors (2), a missing
# script or interpreter (127), a script runs with its arguments and its
# status and sees the checked descriptor as its name; the kernel refuses a
# script without execute permission (126, the script does not run); and on
# a kernel without AT_EXECVE_CHECK (EINVAL, imitated by preloading
# no_execve_check.so) every script is refused unless --allow-unchecked.
# The kernel's own answers need Linux 6.14; on an older host those checks
# are reported as skipped and the rest still run.
. "$(dirname "$0")/../lib/testlib.sh"
keep_going
R=${1:?usage: run_cli.sh RPM-VERITY-RUN NO-EXECVE-CHECK-SO}
SHIM=${2:?usage: run_cli.sh RPM-VERITY-RUN NO-EXECVE-CHECK-SO}
# In the build tree, not /tmp or /dev/shm: those may be mounted noexec.
T=$(mktemp -d "$PWD/run-cli.XXXXXX") || bail "cannot make a directory in $PWD"
at_exit "rm -rf '$T'"
SCRATCH=$T

# expect_status WHAT STATUS REGEX CMD...: CMD exits STATUS and its stderr
# matches REGEX (grep -E), with no sanitizer report.
expect_status() {
	local what=$1 want=$2 re=$3
	shift 3
	run "$@"
	if [ "$RC" != "$want" ] || ! grep -qE -- "$re" "$ERR" ||
		grep -q 'runtime error\|Sanitizer' "$ERR"; then
		_show "$@"
		fail "$what: want exit $want and /$re/ on stderr"
		return
	fi
	ok "$what (exit $RC): $(head -1 "$ERR")"
}

printf 'echo "ran $0 $#:$*"\ntouch "%s/ran-$1"\nexit 7\n' "$T" >"$T/script.sh"
chmod 755 "$T/script.sh"
cp "$T/script.sh" "$T/not-executable.sh"
chmod 644 "$T/not-executable.sh"

echo "# usage"
expect_status "no arguments" 2 "no INTERPRETER and SCRIPT given" "$R"
expect_status "an interpreter and no script" 2 "no SCRIPT given" "$R" sh
expect_status "an unknown option" 2 "unrecognized option '--bogus'" "$R" --bogus sh "$T/script.sh"
run "$R" --help
check "--help: exit 0 and the option listed" bash -c "[ $RC = 0 ] && grep -q -- --allow-unchecked '$OUT'"

echo "# missing files"
expect_status "a missing script" 127 "^rpm-verity-run: $T/none.sh: cannot open: No such file or directory$" \
	"$R" sh "$T/none.sh"
expect_status "a missing interpreter" 127 \
	"^rpm-verity-run: $T/no-shell: cannot run the interpreter: No such file or directory$" \
	"$R" "$T/no-shell" "$T/script.sh" a
check "the script did not run without its interpreter" test ! -e "$T/ran-a"

echo "# the kernel's answer (AT_EXECVE_CHECK, Linux 6.14 on; host $(uname -r))"
run "$R" sh "$T/script.sh" one "two words" --opt
if grep -q "the kernel cannot check it" "$ERR"; then
	echo "SKIPPED - this kernel has no AT_EXECVE_CHECK: $(head -1 "$ERR")"
else
	check_eq "an executable script runs with its own status" "$RC" 7
	check "  it ran" test -e "$T/ran-one"
	check "  nothing on stderr" test ! -s "$ERR"
	# sh names the script by the descriptor it was given; its options stay its own.
	check "  its name is the checked descriptor, its arguments follow" \
		grep -qE '^ran /proc/self/fd/[0-9]+ 3:one two words --opt$' "$OUT"
	run_stdin_closed() { "$R" sh "$T/script.sh" nostdin <&-; }
	run run_stdin_closed
	check "with standard input closed the script is not read as its own input" \
		grep -qE '^ran /proc/self/fd/([3-9]|[1-9][0-9]+) 1:nostdin$' "$OUT"
	expect_status "a script without execute permission is refused" 126 \
		"^rpm-verity-run: $T/not-executable.sh: refused: the kernel does not allow it to be executed: Permission denied" \
		"$R" sh "$T/not-executable.sh" x
	check "  it did not run" test ! -e "$T/ran-x"
	expect_status "a directory is refused" 126 "^rpm-verity-run: $T: refused: .*Permission denied" "$R" sh "$T"
	check "sh runs the same non-executable script when asked directly (what no one checks)" \
		bash -c "sh '$T/not-executable.sh' direct >/dev/null; [ \$? = 7 ] && [ -e '$T/ran-direct' ]"
fi

echo "# a kernel without AT_EXECVE_CHECK (execveat says EINVAL)"
preload="${RUN_CLI_PRELOAD:+$RUN_CLI_PRELOAD }$SHIM"
expect_status "refused: fail closed" 126 \
	"^rpm-verity-run: $T/script.sh: refused: the kernel cannot check it: execveat AT_EXECVE_CHECK: Invalid argument" \
	env LD_PRELOAD="$preload" "$R" sh "$T/script.sh" closed
check "  it did not run" test ! -e "$T/ran-closed"
expect_status "--allow-unchecked runs it, with a warning" 7 \
	"^rpm-verity-run: $T/script.sh: warning: not checked, the kernel has no AT_EXECVE_CHECK" \
	env LD_PRELOAD="$preload" "$R" --allow-unchecked sh "$T/script.sh" open
check "  it ran" test -e "$T/ran-open"
finish "rpm-verity-run usage, missing files and the kernel's answer"
