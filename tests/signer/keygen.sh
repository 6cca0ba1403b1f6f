# rpm-verity-keygen: every key type makes a key (mode 0600) and a matching
# certificate in PEM and DER that openssl and the signer accept; it refuses
# to overwrite; --check tells matching from non-matching pairs.
. "$(dirname "$0")/lib.sh"
: "${KEYGEN:?set by ctest}"
scratch
cd "$SCRATCH" || fail "cd"
echo "a passphrase" >pass

for args in "--type rsa --bits 2048" "--type rsa --bits 3072" "--type ecdsa --curve prime256v1" \
	"--type ecdsa --curve secp384r1" "--type rsa --passphrase-file pass"; do
	dir=k$((n = ${n:-0} + 1))
	# shellcheck disable=SC2086
	expect_ok "keygen $args" "$KEYGEN" $args --days 30 --subject "/CN=test $n/" "$dir"
	expect_stdout "Fingerprint="
	for f in signing-key.pem cert.pem cert.der; do
		[ -s "$dir/$f" ] || fail "keygen $args: no $dir/$f"
	done
	[ "$(stat -c %a "$dir/signing-key.pem")" = 600 ] || fail "keygen $args: key mode is $(stat -c %a "$dir/signing-key.pem")"
	[ "$(ls -A "$dir" | wc -l)" = 3 ] || fail "keygen $args: left extra files: $(ls -A "$dir")"
	cmp -s <(openssl x509 -in "$dir/cert.pem" -outform DER) "$dir/cert.der" || fail "cert.der is not cert.pem"
	openssl x509 -in "$dir/cert.pem" -noout -subject | grep -q "test $n" || fail "subject not used"
	openssl x509 -in "$dir/cert.pem" -noout -ext keyUsage | grep -q "Digital Signature" || fail "no digitalSignature key usage"
	pf=()
	[[ $args == *passphrase* ]] && pf=(--passphrase-file pass)
	expect_ok "keygen --check" "$KEYGEN" --check "${pf[@]}" "$dir/signing-key.pem" "$dir/cert.der"
	# a signature made with the key verifies with the certificate
	echo data >data
	openssl dgst -sha256 -sign "$dir/signing-key.pem" ${pf[@]:+-passin file:pass} -out sig data ||
		fail "openssl cannot sign with $dir/signing-key.pem"
	openssl dgst -sha256 -verify <(openssl x509 -in "$dir/cert.pem" -noout -pubkey) -signature sig data >/dev/null ||
		fail "$dir: signature does not verify with the certificate"
done
grep -q "ENCRYPTED" k5/signing-key.pem || fail "--passphrase-file did not encrypt the key"
[[ $(openssl x509 -in k2/cert.pem -noout -text) == *"3072 bit"* ]] || fail "--bits 3072 ignored"
[[ $(openssl x509 -in k4/cert.pem -noout -text) == *"P-384"* ]] || fail "--curve secp384r1 ignored"

note "refusals"
before=$(state k1)
expect_fail "overwrite" "exists" "$KEYGEN" k1
same_state "overwrite" k1 "$before"
expect_fail "--check on another key's certificate" "match" "$KEYGEN" --check k1/signing-key.pem k3/cert.pem
expect_fail "--check without the passphrase" "signing-key.pem" "$KEYGEN" --check k5/signing-key.pem k5/cert.pem
expect_fail "bad --bits" "bits" "$KEYGEN" --bits 1024 k9
expect_fail "bad --curve" "curve" "$KEYGEN" --type ecdsa --curve secp256k1 k9
expect_fail "bad --type" "type" "$KEYGEN" --type dsa k9
[ ! -e k9 ] || [ -z "$(ls -A k9)" ] || fail "a refused keygen left files in k9"

note "--ca: a certificate the kernel's restricted .fs-verity keyring takes"
openssl req -x509 -newkey rsa:2048 -nodes -subj "/CN=keygen test CA/" -days 2 \
	-addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign \
	-keyout ca.key -out ca.pem 2>/dev/null || fail "openssl cannot make a CA"
expect_ok "keygen --ca" "$KEYGEN" --ca ca.pem --ca-key ca.key kca
openssl verify -CAfile ca.pem kca/cert.pem >/dev/null || fail "--ca: the certificate does not chain to the CA"
[ "$(openssl x509 -in kca/cert.pem -noout -issuer)" = "issuer=CN = keygen test CA" ] ||
	fail "--ca: issuer is $(openssl x509 -in kca/cert.pem -noout -issuer)"
expect_ok "keygen --check of the CA-signed pair" "$KEYGEN" --check kca/signing-key.pem kca/cert.der
! openssl verify -CAfile ca.pem k1/cert.pem >/dev/null 2>&1 || fail "without --ca the certificate chains to the CA"
expect_fail "--ca without --ca-key" "go together" "$KEYGEN" --ca ca.pem k9
expect_fail "--key without --ima" "--key goes with --ima" "$KEYGEN" --key k1/signing-key.pem k9
expect_fail "--ca-key that is not the CA's" "cannot sign" "$KEYGEN" --ca ca.pem --ca-key k1/signing-key.pem k9
[ ! -e k9 ] || [ -z "$(ls -A k9)" ] || fail "a refused keygen left files in k9"

note "the signer takes what keygen makes"
p=$(copy_pkg kinds-zstd "$SCRATCH/p")
expect_ok "sign with a keygen P-384 key" "$RPMVERITY" sign --key k4/signing-key.pem --cert k4/cert.der "$p"
check_signed "$p" k4/cert.pem
finish "$TEST"
