# Every supported key: ECDSA P-256 and P-384 (checked with openssl, as
# ECDSA signatures differ on every run), RSA-4096, a DER certificate, a
# passphrase-protected key with --pass-file or %_file_signing_key_password,
# and key, certificate and algorithm taken from rpm's macros.
. "$(dirname "$0")/lib.sh"
scratch

for k in p256 p384; do
	note "ECDSA $k"
	key $k
	p=$(copy_pkg kinds-zstd "$SCRATCH/$k")
	expect_ok "sign with $k" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" "$p"
	check_signed "$p" "$CERT"
	# The PKCS#7 must name the signer and verify, also against the DER cert.
	expect_ok "independent check with the DER certificate" "$VERITY_CHECK" --cert "${CERT%.pem}.der" "$p"
done

note "RSA-4096"
key rsa4096
p=$(copy_pkg kinds-zstd "$SCRATCH/rsa4096")
expect_ok "sign with rsa4096" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" "$p"
check_signed "$p" "$CERT" --key "$KEY"

note "DER certificate"
key rsa2048
p=$(copy_pkg kinds-zstd "$SCRATCH/der")
expect_ok "sign with a DER certificate" "$RPMVERITY" sign --key "$KEY" --cert "${CERT%.pem}.der" "$p"
check_signed "$p" "$CERT" --key "$KEY"
expect_ok "verify with a DER certificate" "$RPMVERITY" verify --cert "${CERT%.pem}.der" "$p"

note "passphrase-protected key"
key rsapass
p=$(copy_pkg kinds-zstd "$SCRATCH/pass")
expect_ok "sign --pass-file" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" --pass-file "$PASSFILE" "$p"
check_signed "$p" "$CERT"
p=$(copy_pkg kinds-zstd "$SCRATCH/nopass")
before=$(state "$SCRATCH/nopass")
expect_fail "encrypted key without a passphrase" "signing-key.pem" \
	"$RPMVERITY" sign --key "$KEY" --cert "$CERT" "$p"
same_state "encrypted key without a passphrase" "$SCRATCH/nopass" "$before"
echo wrong >"$SCRATCH/wrongpass"
expect_fail "wrong passphrase" "signing-key.pem" \
	"$RPMVERITY" sign --key "$KEY" --cert "$CERT" --pass-file "$SCRATCH/wrongpass" "$p"
same_state "wrong passphrase" "$SCRATCH/nopass" "$before"
expect_fail "missing passphrase file" "nonexistent" \
	"$RPMVERITY" sign --key "$KEY" --cert "$CERT" --pass-file "$SCRATCH/nonexistent" "$p"
same_state "missing passphrase file" "$SCRATCH/nopass" "$before"

note "defaults from rpm's macros (as rpmsign --signverity reads them)"
mkdir "$SCRATCH/home"
cat >"$SCRATCH/home/.rpmmacros" <<MACROS
%_file_signing_key $KEY
%_file_signing_cert $CERT
%_file_signing_key_password $(cat "$PASSFILE")
MACROS
expect_ok "sign with macros only" env HOME="$SCRATCH/home" "$RPMVERITY" sign "$p"
check_signed "$p" "$CERT"

note "no key at all"
p=$(copy_pkg kinds-zstd "$SCRATCH/none")
before=$(state "$SCRATCH/none")
mkdir "$SCRATCH/emptyhome"
expect_fail "no key configured" "key" env HOME="$SCRATCH/emptyhome" "$RPMVERITY" sign "$p"
same_state "no key configured" "$SCRATCH/none" "$before"
finish "$TEST"
