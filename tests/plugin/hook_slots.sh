#!/bin/bash
# rpm 4.18 loads verity.so from the build tree and calls each of our hooks
# through the slot it means: for every "Plugin: calling hook X in verity
# plugin" that rpm logs, the next line our hooks log must be "verity: hook X".
# A hooks table out of order (rpmplugin_418.h) fails here.
. "$(dirname "$0")/lib.sh"

new_root slots
SCRIPTS=1 run_rpm -ivv "$PKGS/signed-1.rpm"
# The scratch root has no /bin/sh, so %post fails after the scriptlet hooks
# ran: rpm 4.18 only warns, rpm 6 fails the install (exit 1) for it. Any
# other error still fails the test.
if [ "$RC" = 1 ] && ! grep '^error: ' "$T/out" |
	grep -v -q 'failed to exec scriptlet interpreter /bin/sh'; then
	expect_out '%post\(vt-demo-1-1\.noarch\) scriptlet failed' "the only failure is %post"
	RC=0
fi
expect_rc 0 "install with -vv"
expect_out "Plugin: calling hook init in verity plugin" "plugin loaded"

awk '
BEGIN { n = split("init tsm_pre tsm_post psm_pre psm_post scriptlet_pre " \
		  "scriptlet_fork_post scriptlet_post fsm_file_pre " \
		  "fsm_file_post fsm_file_prepare", req, " ") }
/^D: Plugin: calling hook [a-z_]+ in verity plugin/ {
	if (want != "") { print "rpm called " want " but no verity hook ran"; bad = 1 }
	want = $5; next
}
/^D: verity: hook / {
	if (want == "") { print "verity hook " $4 " ran unannounced"; bad = 1 }
	else if ($4 != want) { print "rpm called slot " want ", verity ran " $4; bad = 1 }
	else seen[want] = 1
	want = ""
}
END {
	for (i = 1; i <= n; i++)
		if (!seen[req[i]]) { print "hook " req[i] " never called"; bad = 1 }
	exit bad
}' "$T/out" >"$T/awk.out" || { cat "$T/awk.out" >&2; fail "hook slots do not match"; }
finish "all 11 announced hooks ran in their own slot"
