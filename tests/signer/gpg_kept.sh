# GPG header signatures stay valid: rpm -K passes after rpm-verity signs a
# GPG-signed package (the main header and payload are not touched), after
# re-signing, and after strip; signing a package rpmsign has already
# verity-signed replaces its entries with ours.
. "$(dirname "$0")/lib.sh"
needs_rpm_openpgp
scratch
key rsa2048
p=$(copy_pkg kinds-zstd "$SCRATCH")
expect_ok "gpg signature by rpmsign" gpg_sign "$p"
expect_ok "rpm -K on the GPG-signed package" rpm_K "$p"
expect_ok "rpm-verity sign" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" "$p"
expect_ok "rpm -K after rpm-verity sign" rpm_K "$p"
expect_stdout "signatures OK"
[ -n "$(qf "$p" '%{RSAHEADER:pgpsig}')" ] && [ "$(qf "$p" '%{RSAHEADER:pgpsig}')" != "(none)" ] ||
	fail "the GPG signature is gone"
check_signed "$p" "$CERT" --key "$KEY"
key p384
expect_ok "re-sign with P-384" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" "$p"
expect_ok "rpm -K after re-signing" rpm_K "$p"
check_signed "$p" "$CERT"
expect_ok "strip" "$RPMVERITY" strip "$p"
expect_ok "rpm -K after strip" rpm_K "$p"

note "over rpmsign --signverity's entries"
key rsa2048
p=$(copy_pkg plain "$SCRATCH/up")
expect_ok "rpmsign --signverity" rpmsign_verity "$p" "$KEY" "$CERT"
key p256
expect_ok "rpm-verity sign over rpmsign's" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" "$p"
expect_ok "rpm -K" rpm_K "$p"
check_signed "$p" "$CERT"
finish "$TEST"
