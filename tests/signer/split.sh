# The split flow (digests, sign-digests, inject) gives the same bytes as
# sign with the same RSA key, for every kind of entry and compressor;
# splicing the --sighdr-out header into the unsigned package does too; the
# binding digest is rpm's header SHA-256; ECDSA split output verifies; a
# manifest streams through a pipe.
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
