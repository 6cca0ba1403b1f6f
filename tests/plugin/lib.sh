# Shared by the plugin test scripts (sourced, bash): where the build tree and
# the test packages are, how to run rpm with the plugin from the build tree
# (and with the sanitizer runtime when the build is sanitized), and checks of
# what rpm said. ok, fail and skip are tests/lib/testlib.sh's.
. "$(dirname "${BASH_SOURCE[0]}")/../lib/testlib.sh"
rpm_install_opts
set -eu
: "${BUILD:?BUILD must name the build tree}"
SRC=${SRC:-$(cd "$(dirname "$0")" && pwd)}
PKGS=${PKGS:-$BUILD/tests/plugin/packages}
SIGNER=$BUILD/signer/rpm-verity
PLUGIN=$BUILD/plugin/verity.so
SHIM=${SHIM:-$BUILD/tests/plugin/ioctl_shim.so}
VERITY_TAG_EDIT=${VERITY_TAG_EDIT:-$BUILD/tests/tools/verity-tag-edit}

T=$(mktemp -d "${TMPDIR:-/tmp}/verity-plugin-test.XXXXXX")
at_exit "rm -rf '$T'"

# A fresh scratch root with an empty rpmdb, in $ROOT.
new_root() {
	ROOT=$T/root.$1
	mkdir -p "$ROOT"
	rpm --root "$ROOT" --dbpath /var/lib/rpm --initdb
}

# with_boot_loader [FILE]: $ROOT gets a boot-time certificate loader (by
# default the systemd unit), so the plugin has no reboot warning to give.
with_boot_loader() {
	f=$ROOT${1:-/usr/lib/systemd/system/rpm-verity-load-certs.service}
	mkdir -p "$(dirname "$f")"
	: >"$f"
}

# run_rpm [rpm args]: rpm (rpm-driver in sanitized builds, VERITY_TEST_RPM)
# with the plugin from the build tree, against $ROOT. Output in $T/out
# (stdout+stderr), exit status in $RC. USE_SHIM=1 preloads the ioctl
# stand-in (ioctl_shim.c). Scriptlets are off (the scratch root has no
# /bin/sh) unless SCRIPTS=1.
run_rpm() {
	preload=
	[ "${USE_SHIM:-0}" = 1 ] && preload="${VERITY_TEST_PRELOAD:-} $SHIM"
	RC=0
	# In sanitized builds: leaks are errors, with full stacks so that the
	# one rpm leak we know of can be suppressed precisely (tests/tools/lsan.supp).
	env ${preload:+LD_PRELOAD="$preload"} \
		ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0 \
		LSAN_OPTIONS="suppressions=$TOOLS_DIR/lsan.supp:print_suppressions=0" \
		"${VERITY_TEST_RPM:-rpm}" --root "$ROOT" --dbpath /var/lib/rpm --nodeps "${RPM_INSTALL_OPTS[@]}" \
		--define "__plugindir $BUILD/plugin" \
		--define "__transaction_verity %{__plugindir}/verity.so" \
		$([ "${SCRIPTS:-0}" = 1 ] || echo --noscripts) "$@" >"$T/out" 2>&1 || RC=$?
	if grep -q -E 'ERROR: (Address|Undefined|Leak)Sanitizer|runtime error:' "$T/out"; then
		cat "$T/out" >&2
		fail "sanitizer report while running rpm $*"
	fi
}

show() { echo "--- rpm output:" >&2; cat "$T/out" >&2; }
# Each counts as a check (testlib.sh's finish fails a test with none).
expect_rc() { # WANT WHAT
	local failed=$TESTS_FAILED
	if [ "$1" = 0 ] && [ "$RC" != 0 ]; then show; fail "$2: rpm failed ($RC)"; fi
	if [ "$1" != 0 ] && [ "$RC" = 0 ]; then show; fail "$2: rpm succeeded"; fi
	_passed "$failed"
}
expect_out() { # REGEX WHAT
	if grep -q -E -- "$1" "$T/out"; then _passed "$TESTS_FAILED"
	else show; fail "$2: no line matching /$1/"; fi
}
expect_no_out() { # REGEX WHAT
	if grep -q -E -- "$1" "$T/out"; then show; fail "$2: unexpected /$1/"
	else _passed "$TESTS_FAILED"; fi
}
count_out() { grep -c -E -- "$1" "$T/out" || true; }

# The verity messages rpm printed (the plugin prefixes all of them).
verity_lines() { grep 'verity: ' "$T/out" | grep -v '^D: ' || true; }

# Skip when this machine's filesystem does support fs-verity: these tests
# rely on the plugin meeting a filesystem without it (the VM tests cover
# the other case).
require_no_verity_fs() {
	echo probe >"$T/probe"
	if fsverity enable "$T/probe" >"$T/probe.out" 2>&1; then
		skip "$T supports fs-verity; the VM tests cover that case"
	fi
	grep -q -E 'not supported|Inappropriate ioctl' "$T/probe.out" ||
		skip "unexpected fsverity result here: $(cat "$T/probe.out")"
}
