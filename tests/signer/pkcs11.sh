# Keys in a PKCS#11 token (SoftHSM2): RSA-2048 and ECDSA P-256 by RFC 7512
# URI in sign and sign-digests (--key, and --ima-key), with the PIN in the
# URI, a pin-source file, --pass-file, and the URI in %_file_signing_key.
# RSA signatures (IMA ones too) equal the PEM key's; ECDSA ones verify with
# the certificate. A wrong PIN, a missing token, a missing object and a
# missing module each get a clear message; so does a key deleted from the
# token while sign-digests runs (the token's reason, the manifest entry).
. "$(dirname "$0")/lib.sh"
scratch
module=/usr/lib/softhsm/libsofthsm2.so
[ -e $module ] || skip "softhsm2 is not installed (scripts/install-deps)"
command -v pkcs11-tool >/dev/null || skip "opensc's pkcs11-tool is not installed"
export SOFTHSM2_CONF=$SCRATCH/softhsm2.conf
mkdir -p "$SCRATCH/tokens"
printf 'directories.tokendir = %s\nobjectstore.backend = file\nlog.level = ERROR\n' "$SCRATCH/tokens" >"$SOFTHSM2_CONF"
softhsm2-util --init-token --free --label rv-test --pin 1234 --so-pin 5678 >/dev/null ||
	fail "cannot make a SoftHSM token"
p11() { pkcs11-tool --module $module --token-label rv-test --login --pin 1234 "$@" >/dev/null 2>&1; }
id=1
for k in rsa2048 p256; do
	key $k
	openssl pkcs8 -topk8 -nocrypt -in "$KEY" -outform DER -out "$SCRATCH/$k.p8"
	openssl pkey -in "$KEY" -pubout -outform DER -out "$SCRATCH/$k.pub"
	p11 --write-object "$SCRATCH/$k.p8" --type privkey --label $k --id 0$id || fail "cannot import $k"
	# libp11 needs the public half beside an EC private key, as HSMs keep it
	p11 --write-object "$SCRATCH/$k.pub" --type pubkey --label $k --id 0$id || fail "cannot import $k's public key"
	id=$((id + 1))
done
uri() { echo "pkcs11:token=rv-test;object=$1;type=private?module-path=$module${2:+&$2}"; }

note "RSA-2048: sign by URI gives the PEM key's bytes"
key rsa2048
mkdir -p "$SCRATCH/pem" "$SCRATCH/tok"
p=$(copy_pkg kinds "$SCRATCH/in")
copy_pkg many "$SCRATCH/in" >/dev/null
expect_ok "sign with PEM" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" -o "$SCRATCH/pem" "$SCRATCH"/in/*.rpm
expect_ok "sign by URI" "$RPMVERITY" sign --key "$(uri rsa2048 pin-value=1234)" --cert "$CERT" -o "$SCRATCH/tok" "$SCRATCH"/in/*.rpm
grep -q "1234" "$OUT" "$ERR" && fail "the PIN appears in the output"
for n in kinds many; do
	cmp "$SCRATCH/pem/$n.rpm" "$SCRATCH/tok/$n.rpm" || fail "$n: token signature differs from the PEM key's"
done
check_signed "$SCRATCH/tok/kinds.rpm" "$CERT" --key "$KEY"

note "sign-digests by URI (PIN from a pin-source file, --pass-file, a macro)"
expect_ok "digests" "$RPMVERITY" digests -o "$SCRATCH/manifest" "$SCRATCH"/in/*.rpm
expect_ok "sign-digests PEM" "$RPMVERITY" sign-digests --key "$KEY" --cert "$CERT" -o "$SCRATCH/sigs.pem" "$SCRATCH/manifest"
echo 1234 >"$SCRATCH/pin"
expect_ok "sign-digests by URI" "$RPMVERITY" sign-digests --key "$(uri rsa2048 "pin-source=file:$SCRATCH/pin")" \
	--cert "$CERT" -o "$SCRATCH/sigs.tok" "$SCRATCH/manifest"
grep -q "with RSA-2048 key pkcs11:token=rv-test;object=rsa2048" "$ERR" || fail "sign-digests does not name the token key"
cmp "$SCRATCH/sigs.pem" "$SCRATCH/sigs.tok" || fail "token signatures differ from the PEM key's"
expect_ok "sign-digests, PIN by --pass-file" "$RPMVERITY" sign-digests --key "$(uri rsa2048)" --pass-file "$SCRATCH/pin" \
	--cert "$CERT" -o "$SCRATCH/sigs.tok2" "$SCRATCH/manifest"
cmp "$SCRATCH/sigs.pem" "$SCRATCH/sigs.tok2" || fail "token signatures (--pass-file) differ from the PEM key's"
mkdir -p "$SCRATCH/home"
printf '%%_file_signing_key %s\n%%_file_signing_cert %s\n' "$(uri rsa2048 pin-value=1234)" "$CERT" >"$SCRATCH/home/.rpmmacros"
expect_ok "sign-digests, URI from %_file_signing_key" env HOME="$SCRATCH/home" "$RPMVERITY" sign-digests \
	-o "$SCRATCH/sigs.tok3" "$SCRATCH/manifest"
cmp "$SCRATCH/sigs.pem" "$SCRATCH/sigs.tok3" || fail "token signatures (macro) differ from the PEM key's"
expect_ok "inject token signatures" "$RPMVERITY" inject --cert "$CERT" -o "$SCRATCH/tok" "$SCRATCH/sigs.tok" "$SCRATCH"/in/*.rpm
cmp "$SCRATCH/pem/kinds.rpm" "$SCRATCH/tok/kinds.rpm" || fail "split flow with a token differs from sign with PEM"

note "sign-digests --ima-key by URI: the token key signs for IMA too, as the PEM key does"
expect_ok "sign-digests --ima-key PEM" "$RPMVERITY" sign-digests --key "$KEY" --cert "$CERT" \
	--ima-key "$KEY" --ima-cert "$CERT" -o "$SCRATCH/sigs-ima.pem" "$SCRATCH/manifest"
expect_ok "sign-digests --ima-key by URI" "$RPMVERITY" sign-digests --key "$(uri rsa2048 pin-value=1234)" \
	--cert "$CERT" --ima-key "$(uri rsa2048 pin-value=1234)" --ima-cert "$CERT" \
	-o "$SCRATCH/sigs-ima.tok" "$SCRATCH/manifest"
grep -q "^ima " "$SCRATCH/sigs-ima.tok" || fail "no ima lines from the token"
cmp "$SCRATCH/sigs-ima.pem" "$SCRATCH/sigs-ima.tok" || fail "token IMA signatures differ from the PEM key's"

note "ECDSA P-256 by URI"
key p256
mkdir -p "$SCRATCH/ec"
expect_ok "sign by URI" "$RPMVERITY" sign --key "$(uri p256 pin-value=1234)" --cert "$CERT" -o "$SCRATCH/ec" "$p"
check_signed "$SCRATCH/ec/kinds.rpm" "$CERT"
expect_ok "sign-digests by URI" "$RPMVERITY" sign-digests --key "$(uri p256 pin-value=1234)" --cert "$CERT" \
	-o "$SCRATCH/sigs.ec" "$SCRATCH/manifest"
expect_ok "inject ECDSA token signatures" "$RPMVERITY" inject --cert "$CERT" -o "$SCRATCH/ec" "$SCRATCH/sigs.ec" "$SCRATCH"/in/*.rpm
check_signed "$SCRATCH/ec/many.rpm" "$CERT"

note "clear messages"
key rsa2048
before=$(state "$SCRATCH/in")
expect_fail "wrong PIN" "token \"rv-test\": wrong PIN" \
	"$RPMVERITY" sign --key "$(uri rsa2048 pin-value=9999)" --cert "$CERT" "$p"
grep -q 9999 "$ERR" && fail "the wrong PIN appears in the message"
expect_fail "no PIN" "token \"rv-test\" needs a PIN" \
	"$RPMVERITY" sign-digests --key "$(uri rsa2048)" --cert "$CERT" "$SCRATCH/manifest"
expect_fail "missing token" "no such token .*tokens present: \"rv-test\"" \
	"$RPMVERITY" sign --key "pkcs11:token=nosuch;object=rsa2048?module-path=$module&pin-value=1234" --cert "$CERT" "$p"
expect_fail "missing object" "token \"rv-test\" has no private key labelled nosuch" \
	"$RPMVERITY" sign-digests --key "$(uri nosuch pin-value=1234)" --cert "$CERT" "$SCRATCH/manifest"
expect_fail "missing module" "cannot load PKCS#11 module $SCRATCH/nomodule.so" \
	"$RPMVERITY" sign --key "pkcs11:token=rv-test;object=rsa2048?module-path=$SCRATCH/nomodule.so" --cert "$CERT" "$p"
expect_fail "token key, another certificate" "certificate does not match" \
	"$RPMVERITY" sign --key "$(uri p256 pin-value=1234)" --cert "$CERT" "$p"
expect_fail "URI without an object" "no object= or id=" \
	"$RPMVERITY" sign --key "pkcs11:token=rv-test?module-path=$module" --cert "$CERT" "$p"
same_state "failed token signing" "$SCRATCH/in" "$before"

note "a key gone from the token mid-run: the token's reason reaches the user"
p11 --write-object "$SCRATCH/rsa2048.p8" --type privkey --label gone --id 09 || fail "cannot import the key to delete"
mkfifo "$SCRATCH/fifo"
"$RPMVERITY" sign-digests --key "$(uri gone pin-value=1234)" --cert "$CERT" -o "$SCRATCH/sigs.gone" \
	"$SCRATCH/fifo" >"$SCRATCH/gone.out" 2>"$SCRATCH/gone.err" &
pid=$!
exec 3>"$SCRATCH/fifo"
# sign-digests loads the key (and signs a probe with it) before it reads the
# manifest: once it waits in read(2) on the FIFO, the key can go.
for ((i = 0; ; i++)); do
	if ! read -r nr arg _ <"/proc/$pid/syscall"; then
		kill -0 $pid 2>/dev/null && skip "cannot see what sign-digests waits for (/proc/PID/syscall)"
		fail "sign-digests ended before reading its manifest: $(cat "$SCRATCH/gone.err")"
	fi
	[ "$nr" = 0 ] && [ "$(readlink "/proc/$pid/fd/$((arg))")" = "$SCRATCH/fifo" ] && break
	[ $i -lt 1200 ] || fail "sign-digests never read its manifest"
	sleep 0.1
done
p11 --delete-object --type privkey --label gone || fail "cannot delete the key from the token"
cat "$SCRATCH/manifest" >&3
exec 3>&-
wait $pid && fail "sign-digests signed with a key deleted from the token"
sed 's/^/   /' "$SCRATCH/gone.err"
grep -q 'runtime error\|Sanitizer' "$SCRATCH/gone.err" && fail "sign-digests, key deleted: sanitizer report"
grep -qiE "fifo: package [^ ]+: file [0-9]+: pkcs11:token=rv-test;object=gone[^ ]*: cannot sign: .*handle invalid" \
	"$SCRATCH/gone.err" || fail "sign-digests, key deleted: the message lacks the entry or the token's reason"
[ ! -e "$SCRATCH/sigs.gone" ] || fail "sign-digests, key deleted: a signature file was written"
