# Re-signing replaces the earlier entries (one entry per file, the new key's,
# and re-signing with the same RSA key is a no-op byte for byte); strip
# removes both tags; neither touches the main header or payload.
. "$(dirname "$0")/lib.sh"
scratch
key rsa2048
p=$(copy_pkg kinds "$SCRATCH/p")
nfiles=$(qf "$p" '[%{FILENAMES}\n]' | wc -l)
expect_ok "sign" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" "$p"
first=$(sha "$p")
expect_ok "sign again, same key" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" "$p"
[ "$(sha "$p")" = "$first" ] || fail "re-signing with the same RSA key changed the package"

key p256
expect_ok "re-sign with P-256" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" --algo sha512 "$p"
[ "$(qf "$p" '[%{VERITYSIGNATURES}@@\n]' | grep -c '@@')" = "$nfiles" ] ||
	fail "expected $nfiles entries after re-signing"
[ "$(qf "$p" '%{VERITYSIGNATUREALGO}')" = 2 ] || fail "algorithm not replaced"
check_signed "$p" "$CERT" --algo sha512
expect_problem "old certificate no longer verifies" "kinds.rpm" \
	"$RPMVERITY" verify --cert "$KEYS/rsa2048/cert.pem" "$p"

expect_ok "strip" "$RPMVERITY" strip "$p"
[ "$(qf "$p" '%{VERITYSIGNATUREALGO}')" = "(none)" ] || fail "VERITYSIGNATUREALGO still there after strip"
[ -z "$(entries "$p" | grep .)" ] || fail "VERITYSIGNATURES still there after strip"
expect_ok "rpm -K --nosignature after strip" rpm -K --nosignature "$p"
expect_problem "verify after strip" "kinds.rpm" "$RPMVERITY" verify --cert "$CERT" "$p"
expect_ok "strip an unsigned package" "$RPMVERITY" strip "$p"
[ "$(ls -A "$SCRATCH/p")" = "kinds.rpm" ] || fail "leftover files: $(ls -A "$SCRATCH/p")"
finish "$TEST"
