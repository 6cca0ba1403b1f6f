#!/bin/bash
# %_fsverity_policy: unsigned packages and malformed signature entries are
# refused under enforce (rpm fails, no file reaches its final name), are
# warnings under warn (the install goes on), and are ignored under off.
# Every message names the file or package and the reason in words.
. "$(dirname "$0")/lib.sh"

TWO=/usr/share/vt-demo/two
# policy_case PACKAGE MESSAGE-REGEX
policy_case() {
	pkg=$1 msg=$2
	new_root "enforce-$pkg"
	run_rpm -i --define "_fsverity_policy enforce" "$PKGS/$pkg.rpm"
	expect_rc 1 "enforce $pkg"
	expect_out "^error: $msg" "enforce $pkg"
	[ ! -e "$ROOT$TWO" ] || fail "enforce $pkg: $TWO was installed"
	if find "$ROOT/usr" -name '*;*' 2>/dev/null | grep -q .; then
		fail "enforce $pkg: temporary files left"
	fi

	new_root "warn-$pkg"
	run_rpm -i --define "_fsverity_policy warn" "$PKGS/$pkg.rpm"
	expect_rc 0 "warn $pkg"
	expect_out "^warning: $msg" "warn $pkg"
	expect_no_out "^error:" "warn $pkg"
	[ -f "$ROOT$TWO" ] || fail "warn $pkg: $TWO missing"

	new_root "off-$pkg"
	run_rpm -i --define "_fsverity_policy off" "$PKGS/$pkg.rpm"
	expect_rc 0 "off $pkg"
	[ -z "$(verity_lines)" ] || { show; fail "off $pkg: the plugin spoke"; }
}

policy_case vt-demo-1 "verity: vt-demo-1-1.noarch: package has no fs-verity signatures"
policy_case bad-base64 "verity: $TWO: malformed signature: not valid base64"
policy_case truncated "verity: $TWO: malformed signature: truncated or not DER"
policy_case notpkcs7 "verity: $TWO: malformed signature: not a PKCS#7 signature"
policy_case unsigned-two "verity: $TWO: no fs-verity signature for this file in the package"
policy_case algo99 "verity: vt-demo-1-1.noarch: unknown fs-verity hash algorithm \(99\)"
policy_case count "verity: vt-demo-1-1.noarch: the package has a different number of fs-verity signatures than files"

new_root bogus
run_rpm -i --define "_fsverity_policy bogus" "$PKGS/signed-1.rpm"
expect_rc 1 "unknown policy"
expect_out 'verity: %_fsverity_policy is "bogus"; it must be enforce, warn or off' "unknown policy"

new_root bogus-trust
run_rpm -i --define "_fsverity_keyring_trust anyone" "$PKGS/signed-1.rpm"
expect_rc 1 "unknown keyring trust"
expect_out 'verity: %_fsverity_keyring_trust is "anyone"; it must be builtin_and_secondary_trusted, builtin_trusted, ca:/PATH/TO/CA or none' \
	"unknown keyring trust"
finish "enforce refuses, warn warns, off is silent"
