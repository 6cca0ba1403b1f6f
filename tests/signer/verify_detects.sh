# rpm-verity verify and the independent check must fail when they should:
# no signatures, another key's certificate, a changed signature byte, and
# changed file content (uncompressed payload), with the file named.
. "$(dirname "$0")/lib.sh"
scratch
key rsa2048

note "unsigned package"
p=$(copy_pkg kinds-zstd "$SCRATCH/unsigned")
expect_problem "verify an unsigned package" "kinds-zstd.rpm" "$RPMVERITY" verify --cert "$CERT" "$p"
run "$VERITY_CHECK" --cert "$CERT" "$p"
[ "$RC" != 0 ] || fail "verity-check accepts an unsigned package"

note "another key's certificate"
expect_ok "sign" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" "$p"
expect_problem "verify with another certificate" "kinds-zstd.rpm" \
	"$RPMVERITY" verify --cert "$KEYS/p256/cert.pem" "$p"
[ "$(grep -c . "$OUT")" -ge 1 ] || [ "$(grep -c . "$ERR")" -ge 1 ] || fail "no problem lines"
run "$VERITY_CHECK" --cert "$KEYS/rsa4096/cert.pem" "$p"
[ "$RC" != 0 ] || fail "verity-check accepts another key's signatures"

note "one signature changed"
victim=/opt/rvt/sizes/size-4097
sig=$(paste -d'\t' <(qf "$p" '[%{FILENAMES}\n]') <(entries "$p") | awk -F'\t' -v n=$victim '$1 == n { print $2 }')
[ -n "$sig" ] || fail "$victim has no entry"
python3 - "$p" "$sig" <<'PY' || fail "cannot change the signature in the file"
import sys
path, sig = sys.argv[1], sys.argv[2]
data = bytearray(open(path, "rb").read())
# the entry as stored: base64 with a newline every 64 columns
stored = "\n".join(sig[i:i + 64] for i in range(0, len(sig), 64)).encode()
at = data.find(stored)
assert at >= 0 and data.find(stored, at + 1) < 0, "entry not found once"
pos = at + len(stored) - 20          # inside the RSA signature value
data[pos] = ord("A") if data[pos] != ord("A") else ord("B")
open(path, "wb").write(data)
PY
expect_problem "verify a changed signature" "size-4097" "$RPMVERITY" verify --cert "$CERT" "$p"
run "$VERITY_CHECK" --cert "$CERT" "$p"
[ "$RC" != 0 ] && grep -q size-4097 "$OUT" || fail "verity-check misses a changed signature"

note "file content changed in an uncompressed payload"
p=$(copy_pkg kinds-none "$SCRATCH/content")
expect_ok "sign" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" "$p"
(cd "$SCRATCH/content" && rpm2cpio "$p" | cpio -idm --quiet ./opt/rvt/sizes/size-524289) ||
	fail "cannot extract size-524289"
python3 - "$p" "$SCRATCH/content/opt/rvt/sizes/size-524289" <<'PY' || fail "cannot change the content"
import sys
path, ref = sys.argv[1], sys.argv[2]
data = bytearray(open(path, "rb").read())
needle = open(ref, "rb").read()[300000:300000 + 4096]
at = data.find(needle)
assert at >= 0
data[at + 100] ^= 0xff
open(path, "wb").write(data)
PY
expect_problem "verify changed content" "kinds-none.rpm" "$RPMVERITY" verify --cert "$CERT" "$p"
finish "$TEST"
