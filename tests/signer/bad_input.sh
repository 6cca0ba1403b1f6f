# Bad input gets a message naming the file and the reason, a non-zero exit
# (no crash, no sanitizer report), and leaves every input as it was with
# no temporary file behind: truncated and corrupted packages, non-RPM
# files, a source RPM, a wrong key/certificate pair, unreadable or broken
# keys and certificates.
. "$(dirname "$0")/lib.sh"
scratch
key rsa2048
d=$SCRATCH/in
mkdir "$d"
good=$(copy_pkg kinds "$d")
# damaged copies of a signed package, so verify and strip have work to do
expect_ok "sign the package to damage" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" -o "$SCRATCH" "$good"
signed=$SCRATCH/kinds.rpm
size=$(stat -c %s "$signed")
head -c $((size / 2)) "$signed" >"$d/truncated-half.rpm"
head -c $((size - 1000)) "$signed" >"$d/truncated-payload.rpm"
head -c 50 "$signed" >"$d/truncated-lead.rpm"
# a byte flipped in the main header, and in the middle of the payload
hstart=$(python3 - "$signed" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
# lead 96 bytes, then the signature header (8-byte aligned), then the main header
il, dl = struct.unpack(">II", d[96 + 8:96 + 16])
sig_end = 96 + 16 + 16 * il + dl
sig_end += (8 - sig_end % 8) % 8
il, dl = struct.unpack(">II", d[sig_end + 8:sig_end + 16])
print(sig_end, sig_end + 16 + 16 * il + dl)
PY
)
read -r mh payload <<<"$hstart"
size=$(stat -c %s "$signed")
flip() {  # flip FILE OFFSET
	python3 -c 'import sys; p, o = sys.argv[1], int(sys.argv[2]); d = bytearray(open(p, "rb").read()); d[o] ^= 0x55; open(p, "wb").write(d)' "$1" "$2"
}
cp "$signed" "$d/corrupt-header.rpm" && flip "$d/corrupt-header.rpm" $((mh + 200))
cp "$signed" "$d/corrupt-payload.rpm" && flip "$d/corrupt-payload.rpm" $(((payload + size) / 2))
# a letter of the package's name changed case in the main header's data:
# the header still parses, only the signature header's SHA-256 of it tells
name_at=$(python3 -c 'import sys; d = open(sys.argv[1], "rb").read(); print(d.index(b"rvt-kinds", int(sys.argv[2]), int(sys.argv[3])))' "$signed" "$mh" "$payload")
cp "$signed" "$d/corrupt-header-data.rpm" &&
	python3 -c 'import sys; p, o = sys.argv[1], int(sys.argv[2]); d = bytearray(open(p, "rb").read()); d[o] ^= 0x20; open(p, "wb").write(d)' "$d/corrupt-header-data.rpm" "$name_at"
rm "$signed"
echo "not a package" >"$d/text.rpm"
: >"$d/empty.rpm"
head -c 4096 /dev/urandom >"$d/random.rpm"
cp "$PKGS/plain-src.rpm" "$d/"
mkdir "$d/dir.rpm"
before=$(state "$d")
strip_failed=""

for f in truncated-half truncated-payload truncated-lead corrupt-header corrupt-header-data corrupt-payload text empty random; do
	expect_fail "sign $f.rpm" "$f\.rpm" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" "$d/$f.rpm"
	same_state "sign $f.rpm" "$d" "$before"
	expect_fail "sign -o $f.rpm" "$f\.rpm" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" -o "$SCRATCH" "$d/$f.rpm"
	[ ! -e "$SCRATCH/$f.rpm" ] || fail "sign -o $f.rpm left $SCRATCH/$f.rpm"
	expect_problem "verify $f.rpm" "$f\.rpm" "$RPMVERITY" verify --cert "$CERT" "$d/$f.rpm"
	# strip: every case is checked and reported before the test fails
	cp -a "$d/$f.rpm" "$SCRATCH/keep.rpm"
	(expect_fail "strip $f.rpm" "$f\.rpm" "$RPMVERITY" strip "$d/$f.rpm" &&
		same_state "strip $f.rpm" "$d" "$before") || strip_failed="$strip_failed $f"
	cp -a "$SCRATCH/keep.rpm" "$d/$f.rpm"
done
# The payload check runs beside decompression; its verdict names the cause.
for cmd in "sign --key $KEY --cert $CERT" digests "verify --cert $CERT"; do
	# shellcheck disable=SC2086
	expect_fail "${cmd%% *} corrupt-payload.rpm: the digest check's message" \
		"corrupt-payload\.rpm.*payload digest mismatch" "$RPMVERITY" $cmd "$d/corrupt-payload.rpm"
done
same_state "after the corrupt-payload checks" "$d" "$before"
expect_fail "sign a source RPM" "plain-src\.rpm.*source|source.*plain-src\.rpm" \
	"$RPMVERITY" sign --key "$KEY" --cert "$CERT" "$d/plain-src.rpm"
expect_fail "sign a directory" "dir\.rpm" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" "$d/dir.rpm"
expect_fail "sign a missing package" "missing\.rpm" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" "$d/missing.rpm"
same_state "after the package errors" "$d" "$before"

note "one bad package among good ones: exit non-zero, the good ones signed"
cp "$good" "$SCRATCH/good2.rpm"
expect_fail "sign good + bad" "text\.rpm" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" -o "$SCRATCH" "$good" "$d/text.rpm" "$SCRATCH/good2.rpm"
expect_ok "the good one before the bad one was signed" "$RPMVERITY" verify --cert "$CERT" "$SCRATCH/kinds.rpm"
expect_ok "the good one after the bad one was signed" "$RPMVERITY" verify --cert "$CERT" "$SCRATCH/good2.rpm"
rm -f "$SCRATCH/kinds.rpm"

note "keys and certificates"
head -c 600 "$KEY" >"$SCRATCH/cut-key.pem"
echo "garbage" >"$SCRATCH/garbage.pem"
mkdir "$SCRATCH/keydir.pem"
expect_fail "wrong key/cert pair" "match" "$RPMVERITY" sign --key "$KEY" --cert "$KEYS/p256/cert.pem" "$good"
expect_fail "RSA key, RSA cert of another key" "match" "$RPMVERITY" sign --key "$KEYS/rsa4096/signing-key.pem" --cert "$CERT" "$good"
expect_fail "missing key" "nokey\.pem" "$RPMVERITY" sign --key "$SCRATCH/nokey.pem" --cert "$CERT" "$good"
expect_fail "key is a directory" "keydir\.pem" "$RPMVERITY" sign --key "$SCRATCH/keydir.pem" --cert "$CERT" "$good"
expect_fail "cut key" "cut-key\.pem" "$RPMVERITY" sign --key "$SCRATCH/cut-key.pem" --cert "$CERT" "$good"
expect_fail "garbage key" "garbage\.pem" "$RPMVERITY" sign --key "$SCRATCH/garbage.pem" --cert "$CERT" "$good"
expect_fail "missing certificate" "nocert\.pem" "$RPMVERITY" sign --key "$KEY" --cert "$SCRATCH/nocert.pem" "$good"
expect_fail "garbage certificate" "garbage\.pem" "$RPMVERITY" sign --key "$KEY" --cert "$SCRATCH/garbage.pem" "$good"
expect_fail "certificate given as key" "cert\.pem" "$RPMVERITY" sign --key "$CERT" --cert "$CERT" "$good"
expect_problem "verify with a garbage certificate" "garbage\.pem" "$RPMVERITY" verify --cert "$SCRATCH/garbage.pem" "$good"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	note "key unreadable for the signing user"
	cp "$KEY" "$SCRATCH/locked.pem" && chmod 000 "$SCRATCH/locked.pem"
	mkdir "$SCRATCH/nobody" && cp "$good" "$CERT" "$SCRATCH/nobody/" && chmod -R a+rwX "$SCRATCH/nobody"
	chmod a+x "$SCRATCH"
	nb_before=$(state "$SCRATCH/nobody")
	expect_fail "unreadable key" "locked\.pem.*(permission|denied)" setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$RPMVERITY" sign --key "$SCRATCH/locked.pem" --cert "$SCRATCH/nobody/cert.pem" "$SCRATCH/nobody/kinds.rpm"
	same_state "unreadable key" "$SCRATCH/nobody" "$nb_before"
fi
same_state "after the key errors" "$d" "$before"
[ -z "$strip_failed" ] || fail "strip did not refuse these damaged packages:$strip_failed"
finish "$TEST"
