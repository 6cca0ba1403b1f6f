# The one harness of the shell tests (sourced by bash): tests/signer,
# tests/plugin, tests/unit, tests/fuzz, tests/vm and tests/distro, on the
# host and in the guests (the VM guest reads it from the host's tree over
# 9p; the distribution's guest from the share tests/distro/lib.sh fills).
# Every test says how a check went in the same words:
#   ok MSG         a check passed
#   fail MSG       a check failed: the test stops with status 1; after
#                  keep_going it is counted and the test goes on, so one
#                  boot reports every check, and finish gives the status
#   bail MSG       what the rest needs is missing: stop now, status 1
#   skip REASON    the test cannot run here: stop now, status 77 (ctest's
#                  SKIP_RETURN_CODE)
#   finish [NAME]  the count of checks; status 1 if any failed or none
#                  ran (a test that checked nothing proves nothing), else
#                  0; with NAME, a last line "PASS: NAME" or "FAIL: NAME"
#                  (what the VM tests' host side looks for)
#   check, check_fails, check_eq: a command or a comparison as ok or fail
#   expect_ok, expect_fail, expect_problem, expect_stdout, same_state:
#                  a command's status and message, counted as a check
# Beyond that: running a command and checking its exit status and message,
# snapshots that prove inputs were left unchanged, building test packages.
# ctest passes the paths through the environment (see tests/signer).
# Only bash builtins run while this is sourced: the distribution's guest
# has little else.

set -u
TEST=${TEST:-${0##*/}}
case ${BASH_SOURCE[0]} in
*/*) TESTLIB_DIR=$(cd "${BASH_SOURCE[0]%/*}" && pwd) ;;
*) TESTLIB_DIR=$PWD ;;
esac
# The helper programs several folders share (tests/tools).
TOOLS_DIR=${TESTLIB_DIR%/lib}/tools
VERITY_CHECK=$TOOLS_DIR/verity-check
TESTS_PASSED=0
TESTS_FAILED=0
_keep_going=0
_cleanups=()

# rpm_install_opts: sets RPM_INSTALL_OPTS, what the shell tests give every
# rpm -i/-U/-e (as "${RPM_INSTALL_OPTS[@]}") so they run alike under
# Debian's rpm 4.18 and upstream's 4.20 and 6.x (e.g. a build under
# RPMVERITY_RPM_PREFIX, whose rpm is first on PATH):
# --force-debian for Debian's rpm, which otherwise tells the user to use
# Alien (upstream's has no such option), and digests only, since test
# packages carry no OpenPGP signature and rpm 6 refuses such packages by
# default (%_pkgverify_level all; 4.18's default is digest).
rpm_install_opts() {
	RPM_INSTALL_OPTS=(--define "_pkgverify_level digest")
	if rpm --force-debian --version >/dev/null 2>&1; then
		RPM_INSTALL_OPTS+=(--force-debian)
	fi
}

ok() {
	TESTS_PASSED=$((TESTS_PASSED + 1))
	echo "ok   - $* [${SECONDS}s]"
}

# _passed FAILED_BEFORE: a helper's check passed, unless a fail (after
# keep_going) came since TESTS_FAILED was FAILED_BEFORE; counted silently.
_passed() {
	[ "$TESTS_FAILED" != "$1" ] || TESTS_PASSED=$((TESTS_PASSED + 1))
}

fail() {
	TESTS_FAILED=$((TESTS_FAILED + 1))
	echo "FAIL - $* [${SECONDS}s]" >&2
	[ "$_keep_going" = 1 ] || exit 1
}

bail() {
	echo "BAIL - $*" >&2
	exit 1
}

skip() {
	echo "SKIP - $*" >&2
	exit 77
}

# needs_qemu: skip unless this host can boot the guest (root for QEMU,
# loop devices and mkfs; qemu-system-x86_64).
needs_qemu() {
	[ "$(id -u)" = 0 ] || skip "needs root for QEMU and mkfs"
	command -v qemu-system-x86_64 >/dev/null || skip "no qemu-system-x86_64"
}

# needs_ipe_kernel TOP [MIN-VERSION WHY]: skip unless the guest kernel that
# RPMVERITY_KERNEL names (a build under TOP's vm/cache-dir) has IPE and,
# with MIN-VERSION, is that version or newer (WHY says what needs it); bail
# if that kernel is not built. A bzImage named by its path: the guest finds
# out.
needs_ipe_kernel() {
	local top=$1 min=${2:-} why=${3:-} name=${RPMVERITY_KERNEL:-default} build release
	case $name in */*) return 0 ;; esac
	build=$("$top/vm/cache-dir")/kernel/$name/build
	[ -r "$build/.config" ] || bail "$build/.config: no config of kernel '$name' (vm/build-kernel --name $name)"
	grep -q '^CONFIG_SECURITY_IPE=y' "$build/.config" ||
		skip "kernel '$name' has no IPE (CONFIG_SECURITY_IPE, Linux 6.12 on)"
	[ -n "$min" ] || return 0
	release=$(cat "$build/include/config/kernel.release") ||
		bail "$build: no include/config/kernel.release"
	[ "$(printf '%s\n' "$min" "$release" | sort -V | head -1)" = "$min" ] ||
		skip "kernel '$name' is $release: $why needs $min"
}

# needs_bpf_lsm_kernel TOP: skip unless the guest kernel RPMVERITY_KERNEL
# names has the BPF LSM with BTF (what rpm-verity-enforcer attaches to);
# bail if that kernel is not built. A bzImage named by its path: the guest
# finds out.
needs_bpf_lsm_kernel() {
	local top=$1 name=${RPMVERITY_KERNEL:-default} build
	case $name in */*) return 0 ;; esac
	build=$("$top/vm/cache-dir")/kernel/$name/build
	[ -r "$build/.config" ] || bail "$build/.config: no config of kernel '$name' (vm/build-kernel --name $name)"
	grep -q '^CONFIG_BPF_LSM=y' "$build/.config" && grep -q '^CONFIG_DEBUG_INFO_BTF=y' "$build/.config" ||
		skip "kernel '$name' has no BPF LSM with BTF (CONFIG_BPF_LSM, CONFIG_DEBUG_INFO_BTF)"
}

# keep_going: from now on a failed check is counted and the test goes on.
keep_going() {
	_keep_going=1
}

# finish [NAME]: ends the test with the status its checks give.
finish() {
	echo "# $TESTS_PASSED passed, $TESTS_FAILED failed"
	if [ $((TESTS_PASSED + TESTS_FAILED)) = 0 ]; then
		echo "FAIL - no check ran: the test proves nothing" >&2
		[ $# = 0 ] || echo "FAIL: $*"
		exit 1
	fi
	if [ "$TESTS_FAILED" = 0 ]; then
		[ $# = 0 ] || echo "PASS: $*"
		exit 0
	fi
	[ $# = 0 ] || echo "FAIL: $*"
	exit 1
}

# check WHAT COMMAND...: passes when COMMAND succeeds.
check() {
	local what=$1
	shift
	if "$@"; then ok "$what"; else fail "$what (command: $*)"; fi
}

# check_fails WHAT COMMAND...: passes when COMMAND fails.
check_fails() {
	local what=$1
	shift
	if "$@"; then fail "$what (unexpectedly succeeded: $*)"; else ok "$what"; fi
}

# check_eq WHAT GOT WANT
check_eq() {
	if [ "$2" = "$3" ]; then ok "$1"; else fail "$1: got '$2', want '$3'"; fi
}

note() {
	echo "-- $*"
}

# ... | matches [GREP-OPTIONS] PATTERN: a line of stdin matches (as grep -q),
# and all of stdin is read. grep -q stops at the first match, so the writer
# of the pipe can die of SIGPIPE on its next write, and under `set -o
# pipefail` (tests/vm, tests/distro) the pipeline is then false although
# the line was there: a race, lost only under load (seen in CI at 9d7338e).
matches() {
	local rc=0
	grep -q "$@" || rc=$?
	cat >/dev/null
	return $rc
}

need_root() {
	[ "$(id -u)" = 0 ] || skip "needs root: $*"
}

# at_exit CMD...: run CMD when the test ends, last registered first.
at_exit() {
	_cleanups+=("$*")
}

_run_cleanups() {
	local i
	for ((i = ${#_cleanups[@]} - 1; i >= 0; i--)); do
		eval "${_cleanups[i]}" || true
	done
}
trap _run_cleanups EXIT
trap 'exit 143' TERM INT HUP	# so a ctest timeout still unmounts and cleans up

# fast_tmpdir: a directory on tmpfs when one is writable (creating and
# deleting many files on a discard-mounted disk is very slow), else $TMPDIR.
fast_tmpdir() {
	if [ -d /dev/shm ] && [ -w /dev/shm ]; then
		echo /dev/shm
	else
		echo "${TMPDIR:-/tmp}"
	fi
}

# scratch: a fresh directory removed when the test ends ($SCRATCH).
scratch() {
	SCRATCH=$(mktemp -d "$(fast_tmpdir)/rvtest.${TEST%.sh}.XXXXXX") || fail "cannot make a scratch directory"
	at_exit "rm -rf '$SCRATCH'"
}

# run CMD...: runs CMD (stdin from /dev/null, 600 s at most) and keeps its
# exit status in $RC and its output in $OUT and $ERR (files).
run() {
	OUT=$SCRATCH/.out ERR=$SCRATCH/.err
	RC=0
	if declare -F "$1" >/dev/null; then
		"$@" </dev/null >"$OUT" 2>"$ERR" || RC=$?
	else
		timeout 600 "$@" </dev/null >"$OUT" 2>"$ERR" || RC=$?
	fi
}

_show() {
	echo "  command: $*" >&2
	echo "  exit status: $RC" >&2
	sed 's/^/  stdout: /' "$OUT" | head -20 >&2
	sed 's/^/  stderr: /' "$ERR" | head -20 >&2
}

# expect_ok WHAT CMD...: CMD must succeed.
expect_ok() {
	local what=$1 failed=$TESTS_FAILED
	shift
	run "$@"
	if [ "$RC" != 0 ]; then
		_show "$@"
		fail "$what: expected success"
	fi
	# AddressSanitizer/UBSan reports go to stderr even when the exit is 0.
	if grep -q 'runtime error\|Sanitizer' "$ERR"; then
		_show "$@"
		fail "$what: sanitizer report"
	fi
	_passed "$failed"
}

# expect_fail WHAT REGEX CMD...: CMD must fail (not crash) and say REGEX
# (grep -E, case-insensitive) on stderr.
expect_fail() {
	local what=$1 re=$2 failed=$TESTS_FAILED
	shift 2
	run "$@"
	if [ "$RC" = 0 ]; then
		_show "$@"
		fail "$what: expected failure, got success"
	fi
	if [ "$RC" -ge 124 ]; then
		_show "$@"
		fail "$what: expected a clean failure, got exit status $RC (timeout or signal)"
	fi
	if grep -q 'runtime error\|Sanitizer' "$ERR"; then
		_show "$@"
		fail "$what: sanitizer report"
	fi
	if ! grep -qiE -- "$re" "$ERR"; then
		_show "$@"
		fail "$what: stderr does not match /$re/"
	fi
	echo "   $what: refused (exit $RC): $(head -1 "$ERR")"
	_passed "$failed"
}

# expect_problem WHAT REGEX CMD...: like expect_fail, for commands that
# report findings (rpm-verity verify): REGEX may be on stdout or stderr.
expect_problem() {
	local what=$1 re=$2 failed=$TESTS_FAILED
	shift 2
	run "$@"
	if [ "$RC" = 0 ] || [ "$RC" -ge 124 ] || grep -q 'runtime error\|Sanitizer' "$ERR" ||
		! grep -qiE -- "$re" "$OUT" "$ERR"; then
		_show "$@"
		fail "$what: expected a clean failure mentioning /$re/"
	fi
	echo "   $what: refused (exit $RC): $(cat "$OUT" "$ERR" | head -1)"
	_passed "$failed"
}

# expect_stdout REGEX: the last run's stdout matches REGEX (grep -E).
expect_stdout() {
	if grep -qE -- "$1" "$OUT"; then
		_passed "$TESTS_FAILED"
	else
		_show "(last command)"
		fail "stdout does not match /$1/"
	fi
}

# state DIR: every name in DIR (hidden ones too) with its content's hash and
# mode, so a later `state DIR` shows whether anything changed or was left.
state() {
	(cd "$1" && find . -mindepth 1 -printf '%p %m %s\n' | sort &&
		find . -type f -print0 | sort -z | xargs -0 -r sha256sum)
}

# same_state WHAT DIR SNAPSHOT: DIR is as SNAPSHOT (a `state` output) says.
same_state() {
	local now
	now=$(state "$2")
	if [ "$now" != "$3" ]; then
		echo "  changes in $2:" >&2
		diff <(echo "$3") <(echo "$now") | sed 's/^/  /' >&2
		fail "$1: $2 changed (input not left as it was, or a temporary file remains)"
	else
		_passed "$TESTS_FAILED"
	fi
}

# sha FILE: its SHA-256.
sha() {
	sha256sum "$1" | cut -d' ' -f1
}

# qf PKG FORMAT: rpm's query of PKG.
qf() {
	rpm -qp --nosignature --qf "$2" "$1" 2>/dev/null
}

# build_rpm SPEC OUTDIR PAYLOAD [DEFINE...]: builds SPEC's binary package
# with payload compression PAYLOAD (e.g. w1.zstdio) into OUTDIR; prints
# the package's path. Each DEFINE is "name value".
build_rpm() {
	local spec=$1 outdir=$2 payload=$3 top d args=()
	shift 3
	for d in "$@"; do args+=(--define "$d"); done
	top=$(mktemp -d "$(fast_tmpdir)/rvbuild.XXXXXX") || fail "mktemp"
	mkdir -p "$top/tmp"
	if ! rpmbuild -bb --quiet --define "_topdir $top" --define "_tmppath $top/tmp" \
		--define "_binary_payload $payload" "${args[@]}" "$spec" >"$top.log" 2>&1; then
		tail -20 "$top.log" >&2
		rm -rf "$top" "$top.log"
		fail "rpmbuild $spec ($payload) failed"
	fi
	mkdir -p "$outdir"
	local rpm
	rpm=$(find "$top/RPMS" -name '*.rpm' | head -1)
	[ -n "$rpm" ] || fail "rpmbuild $spec made no package"
	mv "$rpm" "$outdir/" || fail "cannot move $rpm"
	rm -rf "$top" "$top.log"
	echo "$outdir/${rpm##*/}"
}
