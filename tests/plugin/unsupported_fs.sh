#!/bin/bash
# On a filesystem without fs-verity (this machine's; the test skips where
# the filesystem has it), signed packages install, the plugin says so once
# per filesystem rather than once per file, and
# %_fsverity_require_fs_support turns that into a clean failure.
. "$(dirname "$0")/lib.sh"
require_no_verity_fs

UNSUPPORTED='verity: .*(does not support fs-verity|fs-verity is not enabled for this filesystem)'
for policy in warn enforce; do
	new_root $policy
	run_rpm -i --define "_fsverity_policy $policy" "$PKGS/signed-1.rpm"
	expect_rc 0 "$policy: signed package on a filesystem without verity"
	n=$(count_out "^warning: $UNSUPPORTED")
	[ "$n" = 1 ] || { show; fail "$policy: $n reports of the unsupported filesystem, want 1"; }
	expect_no_out '^error:' "$policy"
	[ -f "$ROOT/usr/share/vt-demo/two" ] || fail "$policy: files not installed"
done

# Upgrade and erase behave (signed-2 replaces signed-1's files).
run_rpm -U --define "_fsverity_policy enforce" "$PKGS/signed-2.rpm"
expect_rc 0 "upgrade"
grep -q "version 2" "$ROOT/usr/share/vt-demo/two" || fail "upgrade did not replace files"
run_rpm -e vt-demo
expect_rc 0 "erase"
[ ! -e "$ROOT/usr/share/vt-demo/two" ] || fail "erase left files"

new_root strict
run_rpm -i --define "_fsverity_require_fs_support 1" "$PKGS/signed-1.rpm"
expect_rc 1 "require_fs_support"
expect_out "^error: $UNSUPPORTED.*refused by %_fsverity_require_fs_support" "require_fs_support"
left=$(find "$ROOT" -path "$ROOT/var" -prune -o -type f -print)
[ -z "$left" ] || fail "failed install left files behind: $left"
finish "one report per filesystem; require_fs_support refuses cleanly"
