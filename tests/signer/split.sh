# The split flow (digests, sign-digests, inject) gives the same bytes as
# sign with the same RSA key, for every kind of entry and compressor;
# splicing the --sighdr-out header into the unsigned package does too; the
# binding digest is rpm's header SHA-256; ECDSA split output verifies; a
# manifest streams through a pipe. With an IMA key (sign-digests --ima-key,
# inject --ima-cert), the same holds against sign --ima-key: the same bytes
# and sighdr with RSA keys, IMA signatures that verify with ECDSA ones.
. "$(dirname "$0")/lib.sh"
scratch
key rsa2048
names="kinds kinds-gzip kinds-xz kinds-none many plain"
mkdir -p "$SCRATCH/in" "$SCRATCH/ref" "$SCRATCH/split" "$SCRATCH/hdr"
for n in $names; do copy_pkg $n "$SCRATCH/in" >/dev/null; done
before=$(state "$SCRATCH/in")

note "split flow vs sign (RSA-2048)"
split_sign "$SCRATCH/split" "$SCRATCH/hdr" "$SCRATCH"/in/*.rpm
expect_ok "sign" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" -o "$SCRATCH/ref" "$SCRATCH"/in/*.rpm
same_state "split flow with -o" "$SCRATCH/in" "$before"
for n in $names; do
	cmp "$SCRATCH/ref/$n.rpm" "$SCRATCH/split/$n.rpm" ||
		fail "$n: split flow output differs from rpm-verity sign"
	splice "$SCRATCH/in/$n.rpm" "$SCRATCH/hdr/$n.rpm.sighdr" "$SCRATCH/spliced.rpm"
	cmp "$SCRATCH/ref/$n.rpm" "$SCRATCH/spliced.rpm" ||
		fail "$n: unsigned package + --sighdr-out header differs from rpm-verity sign"
	echo "   $n: split flow and splice byte-identical to sign"
done
check_signed "$SCRATCH/split/kinds.rpm" "$CERT" --key "$KEY"

note "binding digest is the header's SHA-256 (RPMSIGTAG_SHA256)"
for n in kinds plain; do
	want=$(qf "$SCRATCH/in/$n.rpm" '%{SHA256HEADER}')
	grep -q "^package [^ ]* $want " "$SCRATCH/manifest" ||
		fail "$n: manifest's binding digest is not %{SHA256HEADER} ($want)"
done

note "what sign-digests says it signed"
run "$RPMVERITY" sign-digests --key "$KEY" --cert "$CERT" -o "$SCRATCH/sigs2" "$SCRATCH/manifest"
grep -qE "signed 6 packages, [0-9]+ of [0-9]+ files \([0-9]+ signatures made\), sha256, with RSA-2048 key .*rsa2048/signing-key.pem" "$ERR" ||
	fail "sign-digests does not say what it signed: $(cat "$ERR")"
cmp "$SCRATCH/sigs" "$SCRATCH/sigs2" || fail "sign-digests is not deterministic with an RSA key"

note "in place, through pipes"
cp "$SCRATCH"/in/plain.rpm "$SCRATCH"/in/many.rpm "$SCRATCH/split/" 
"$RPMVERITY" digests "$SCRATCH/split/plain.rpm" "$SCRATCH/split/many.rpm" 2>/dev/null |
	"$RPMVERITY" sign-digests --key "$KEY" --cert "$CERT" 2>/dev/null >"$SCRATCH/piped" ||
	fail "digests | sign-digests failed"
expect_ok "inject in place" "$RPMVERITY" inject --cert "$CERT" "$SCRATCH/piped" \
	"$SCRATCH/split/plain.rpm" "$SCRATCH/split/many.rpm"
cmp "$SCRATCH/ref/plain.rpm" "$SCRATCH/split/plain.rpm" || fail "piped flow differs from sign (plain)"
cmp "$SCRATCH/ref/many.rpm" "$SCRATCH/split/many.rpm" || fail "piped flow differs from sign (many)"

note "ECDSA P-256"
key p256
mkdir -p "$SCRATCH/ec"
split_sign "$SCRATCH/ec" "" "$SCRATCH/in/kinds.rpm"
check_signed "$SCRATCH/ec/kinds.rpm" "$CERT"

note "split flow with IMA sigv3 vs sign --ima-key (RSA-2048 fs-verity key, RSA-4096 IMA key)"
key rsa2048
IMA_KEY=$KEYS/rsa4096/signing-key.pem IMA_CERT=$KEYS/rsa4096/cert.pem
mkdir -p "$SCRATCH/ima-ref" "$SCRATCH/ima-ref2" "$SCRATCH/ima-split" "$SCRATCH/ima-hdr"
split_sign "$SCRATCH/ima-split" "$SCRATCH/ima-hdr" "$SCRATCH"/in/*.rpm
grep -q "^ima [0-9]* 0603" "$SCRATCH/sigs" || fail "no ima lines in the signature file"
[ "$(grep -c '^ima ' "$SCRATCH/sigs")" = "$(grep -c '^sig [0-9]* sha256 ' "$SCRATCH/sigs")" ] ||
	fail "not one ima line per signed file"
expect_ok "sign --ima-key" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" \
	--ima-key "$IMA_KEY" --ima-cert "$IMA_CERT" -o "$SCRATCH/ima-ref" "$SCRATCH"/in/*.rpm
same_state "split flow with IMA, with -o" "$SCRATCH/in" "$before"
for n in $names; do
	cmp "$SCRATCH/ima-ref/$n.rpm" "$SCRATCH/ima-split/$n.rpm" ||
		fail "$n: split flow with IMA differs from rpm-verity sign --ima-key"
	splice "$SCRATCH/in/$n.rpm" "$SCRATCH/ima-hdr/$n.rpm.sighdr" "$SCRATCH/spliced.rpm"
	cmp "$SCRATCH/ima-ref/$n.rpm" "$SCRATCH/spliced.rpm" ||
		fail "$n: unsigned package + --sighdr-out header (IMA) differs from rpm-verity sign --ima-key"
	cmp -s "$SCRATCH/ref/$n.rpm" "$SCRATCH/ima-split/$n.rpm" &&
		fail "$n: the IMA signatures did not change the package"
	echo "   $n: split flow with IMA and its splice byte-identical to sign --ima-key"
done
[ -n "$(qf "$SCRATCH/ima-split/kinds.rpm" '[%{FILESIGNATURES}\n]' | grep .)" ] ||
	fail "kinds: no IMA signatures (tag 274) after inject --ima-cert"
expect_ok "verify --ima-cert" "$RPMVERITY" verify --cert "$CERT" --ima-cert "$IMA_CERT" \
	"$SCRATCH/ima-split/kinds.rpm"
expect_stdout "IMA signatures OK"

note "the same key for both, through pipes, in place, over a package signed before"
cp "$SCRATCH/ref/plain.rpm" "$SCRATCH/ima-split/plain.rpm"
"$RPMVERITY" digests "$SCRATCH/ima-split/plain.rpm" 2>/dev/null |
	"$RPMVERITY" sign-digests --key "$KEY" --cert "$CERT" --ima-key "$KEY" --ima-cert "$CERT" \
		2>"$SCRATCH/said" >"$SCRATCH/piped-ima" || fail "digests | sign-digests --ima-key failed"
grep -q "and IMA sigv3 signatures of the same files, with RSA-2048 key .*rsa2048/signing-key.pem (key id [0-9a-f]\{8\})" "$SCRATCH/said" ||
	fail "sign-digests does not say it made IMA signatures: $(cat "$SCRATCH/said")"
expect_ok "inject --ima-cert in place" "$RPMVERITY" inject --cert "$CERT" --ima-cert "$CERT" \
	"$SCRATCH/piped-ima" "$SCRATCH/ima-split/plain.rpm"
# From the same package: what is left of the reserved space depends on
# the signing before (reserved_space.sh).
expect_ok "sign --ima-key, the same key" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" \
	--ima-key "$KEY" --ima-cert "$CERT" -o "$SCRATCH/ima-ref2" "$SCRATCH/ref/plain.rpm"
cmp "$SCRATCH/ima-ref2/plain.rpm" "$SCRATCH/ima-split/plain.rpm" ||
	fail "piped flow with IMA (same key) differs from sign --ima-key"

note "inject without IMA drops the sigv3 signatures of an earlier signing, as sign does"
cp "$SCRATCH/ima-split/kinds.rpm" "$SCRATCH/resigned.rpm"
expect_ok "digests" "$RPMVERITY" digests -o "$SCRATCH/manifest2" "$SCRATCH/resigned.rpm"
expect_ok "sign-digests" "$RPMVERITY" sign-digests --key "$KEY" --cert "$CERT" \
	-o "$SCRATCH/sigs3" "$SCRATCH/manifest2"
expect_ok "inject" "$RPMVERITY" inject --cert "$CERT" "$SCRATCH/sigs3" "$SCRATCH/resigned.rpm"
expect_stdout "dropping the IMA signatures"
# sign over the same package (the dropped bytes go to the reserved space).
cp "$SCRATCH/ima-split/kinds.rpm" "$SCRATCH/resigned-ref.rpm"
expect_ok "sign without --ima-key" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" \
	"$SCRATCH/resigned-ref.rpm"
expect_stdout "dropping the IMA signatures"
cmp "$SCRATCH/resigned-ref.rpm" "$SCRATCH/resigned.rpm" ||
	fail "inject over an IMA-signed package differs from sign without --ima-key"
[ "$(entries "$SCRATCH/resigned.rpm")" = "$(entries "$SCRATCH/ref/kinds.rpm")" ] ||
	fail "inject over an IMA-signed package: fs-verity entries differ from sign's"

note "ECDSA P-256 for both, IMA included (signatures are randomized: verified instead)"
key p256
IMA_KEY=$KEY IMA_CERT=$CERT
mkdir -p "$SCRATCH/ec-ima"
split_sign "$SCRATCH/ec-ima" "" "$SCRATCH/in/kinds.rpm"
check_signed "$SCRATCH/ec-ima/kinds.rpm" "$CERT"
expect_ok "verify --ima-cert (P-256)" "$RPMVERITY" verify --cert "$CERT" --ima-cert "$CERT" \
	"$SCRATCH/ec-ima/kinds.rpm"
expect_stdout "IMA signatures OK"
expect_problem "verify with another IMA certificate" "key id" \
	"$RPMVERITY" verify --cert "$CERT" --ima-cert "$KEYS/rsa2048/cert.pem" "$SCRATCH/ec-ima/kinds.rpm"
echo PASS
