#!/bin/bash
# %_fsverity_certs: unreadable or non-certificate files are reported (an
# error that stops the transaction under enforce, a warning under warn), and
# a kernel without a .fs-verity keyring is reported as such. Loading into a
# real keyring, locking it and require_signatures are tested in the VM: this
# test never touches this machine's keyrings, and skips where a .fs-verity
# keyring exists.
. "$(dirname "$0")/lib.sh"
if grep -q ' keyring *\.fs-verity' /proc/keys 2>/dev/null; then
	skip "this kernel has a .fs-verity keyring; not adding test certificates to it"
fi

new_root missing-warn
run_rpm -i --define "_fsverity_certs $T/none.pem" "$PKGS/signed-1.rpm"
expect_rc 0 "missing cert, warn"
expect_out "^warning: verity: cannot read certificate $T/none.pem: No such file or directory" "missing cert"

new_root missing-enforce
run_rpm -i --define "_fsverity_policy enforce" --define "_fsverity_certs $T/none.pem" \
	"$PKGS/signed-1.rpm"
expect_rc 1 "missing cert, enforce"
expect_out "^error: verity: cannot read certificate $T/none.pem" "missing cert, enforce"
[ ! -e "$ROOT/usr/share/vt-demo/two" ] || fail "enforce: installed despite the certificate error"

echo "not a certificate" >"$T/junk.pem"
new_root junk
run_rpm -i --define "_fsverity_certs $T/junk.pem" "$PKGS/signed-1.rpm"
expect_rc 0 "junk cert, warn"
expect_out "^warning: verity: $T/junk.pem holds no X.509 certificate" "junk cert"

# A good certificate (PEM, and DER) on a kernel without the keyring.
openssl x509 -in "$PKGS/cert.pem" -outform DER -out "$T/cert.der"
for c in "$PKGS/cert.pem" "$T/cert.der"; do
	new_root "nokeyring-$(basename "$c")"
	run_rpm -i --define "_fsverity_certs $c" "$PKGS/signed-1.rpm"
	expect_rc 0 "no keyring"
	expect_out "^warning: verity: this kernel has no .fs-verity keyring" "no keyring"
	expect_no_out "verity: .*(cannot read certificate|holds no X.509)" "good certificate $c"
done
run_rpm -i --replacepkgs --define "_fsverity_certs $PKGS/cert.pem" \
	--define "_fsverity_require_fs_support 1" "$PKGS/signed-1.rpm"
expect_rc 1 "no keyring, require_fs_support"

# --test does not load certificates at all.
new_root test
run_rpm -i --test --define "_fsverity_certs $T/none.pem" "$PKGS/signed-1.rpm"
expect_rc 0 "--test"
expect_no_out "verity: " "--test"
finish "certificate files checked, missing keyring reported"
