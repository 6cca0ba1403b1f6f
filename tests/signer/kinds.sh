# Every kind of file entry (sizes at Merkle boundaries up to 16 MiB+1,
# hardlinks, %ghost, %config, symlinks, directories, empty files), signed
# with RSA-2048 into another directory: the input stays as it was, rpm
# reads the result, and the signatures equal what `fsverity sign` makes.
# verify --list says of each kind whether it is signed and protected, and a
# tag 277 of the wrong type is refused by name.
. "$(dirname "$0")/lib.sh"
scratch
key rsa2048
in=$(copy_pkg kinds "$SCRATCH/in")
before=$(state "$SCRATCH/in")
mkdir "$SCRATCH/out"

expect_ok "sign -o" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" -o "$SCRATCH/out" "$in"
same_state "sign -o" "$SCRATCH/in" "$before"
out=$SCRATCH/out/kinds.rpm
[ -f "$out" ] || fail "sign -o wrote no $out"
[ "$(ls -A "$SCRATCH/out")" = kinds.rpm ] || fail "extra files in the output directory: $(ls -A "$SCRATCH/out")"
check_signed "$out" "$CERT" --key "$KEY" --algo sha256
[ "$(qf "$out" '%{VERITYSIGNATUREALGO}')" = 1 ] || fail "VERITYSIGNATUREALGO is not 1 (SHA-256)"

note "hardlink sets share one signature; empty files get the empty file's"
paste <(qf "$out" '[%{FILENAMES}\n]') <(entries "$out") >"$SCRATCH/pairs"
sig_of() { awk -F'\t' -v n="$1" '$1 == n { print $2 }' "$SCRATCH/pairs"; }
a=$(sig_of /opt/rvt/links/a)
[ -n "$a" ] || fail "/opt/rvt/links/a has no signature"
[ "$(sig_of /opt/rvt/links/b)" = "$a" ] || fail "hardlink /opt/rvt/links/b differs from its set"
[ "$(sig_of /opt/rvt/sub/c)" = "$a" ] || fail "hardlink /opt/rvt/sub/c differs from its set"
e=$(sig_of /opt/rvt/empty)
[ -n "$e" ] || fail "empty file /opt/rvt/empty has no signature"
[ "$(sig_of /opt/rvt/links/empty-1)" = "$e" ] || fail "empty hardlink empty-1 differs from the empty file's signature"
[ "$(sig_of /opt/rvt/links/empty-2)" = "$e" ] || fail "empty hardlink empty-2 differs from the empty file's signature"
for n in /opt/rvt/ghost.log /opt/rvt/ghostdir /opt/rvt/symlink /opt/rvt/dangling /opt/rvt/emptydir /opt/rvt; do
	[ -z "$(sig_of "$n")" ] || fail "$n should have an empty entry"
done
[ -n "$(sig_of /etc/rvt.conf)" ] || fail "%config /etc/rvt.conf has no signature"

note "sign counts the files it signed, not the empty entries"
nsig=$(awk -F'\t' '$2 != ""' "$SCRATCH/pairs" | wc -l)
nall=$(wc -l <"$SCRATCH/pairs")
[ "$nsig" -lt "$nall" ] || fail "kinds has no empty entries ($nsig of $nall signed)"
run "$RPMVERITY" sign --key "$KEY" --cert "$CERT" -o "$SCRATCH/out" "$in"
expect_stdout "^$SCRATCH/out/kinds.rpm: signed $nsig files [(]sha256[)]$"

note "verify --list: each kind signed, protected, and its entry"
expect_ok "verify --list" "$RPMVERITY" verify --list "$out"
cp "$OUT" "$SCRATCH/list"
[ "$(wc -l <"$SCRATCH/list")" = "$(qf "$out" '[%{FILENAMES}\n]' | wc -l)" ] ||
	fail "verify --list: not one line per header file"
T=$'\t'
for want in \
	"/opt/rvt/sizes/size-4097${T}signed${T}protected${T}signature" \
	"/opt/rvt/sizes/size-0${T}signed${T}protected${T}signature" \
	"/opt/rvt/empty${T}signed${T}protected${T}signature" \
	"/opt/rvt/links/b${T}signed${T}protected${T}signature" \
	"/opt/rvt/links/empty-2${T}signed${T}protected${T}signature" \
	"/opt/rvt/sub/deeper/tool${T}signed${T}protected${T}signature" \
	"/opt/rvt/with space${T}signed${T}protected${T}signature" \
	"/etc/rvt-hook${T}signed${T}protected${T}signature" \
	"/etc/rvt.conf${T}signed${T}unprotected${T}signature" \
	"/opt/rvt/ghost.log${T}unsigned${T}unprotected${T}no-signature" \
	"/opt/rvt/ghostdir${T}unsigned${T}unprotected${T}no-signature" \
	"/opt/rvt/symlink${T}unsigned${T}unprotected${T}no-signature" \
	"/opt/rvt/dangling${T}unsigned${T}unprotected${T}no-signature" \
	"/opt/rvt/emptydir${T}unsigned${T}unprotected${T}no-signature" \
	"/opt/rvt${T}unsigned${T}unprotected${T}no-signature"; do
	grep -qxF "$want" "$SCRATCH/list" || { cat "$SCRATCH/list"; fail "verify --list: no line \"$want\""; }
done
expect_ok "verify --list of the unsigned input" "$RPMVERITY" verify --list "$in"
cut -f1-3 "$OUT" | cmp -s - <(cut -f1-3 "$SCRATCH/list") || fail "verify --list: the rule differs before signing"
[ "$(cut -f4 "$OUT" | sort -u)" = no-signature ] || fail "verify --list: entries in an unsigned package"
expect_fail "verify --list with --cert" "certificate" "$RPMVERITY" verify --list --cert "$CERT" "$out"

note "tag 277 of the wrong type (INT16): a refusal naming it, not a crash"
python3 - "$out" "$SCRATCH/int16.rpm" <<'PY' || fail "cannot make the INT16 package"
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
n = struct.unpack(">I", data[96 + 8:96 + 12])[0]
for i in range(n):
	e = 96 + 16 + 16 * i
	if struct.unpack(">I", data[e:e + 4])[0] == 277:
		# RPM_INT16_TYPE, two of them: the same 4 bytes, so rpm parses it
		data[e + 4:e + 8] = struct.pack(">I", 3)
		data[e + 12:e + 16] = struct.pack(">I", 2)
		break
else:
	sys.exit("no tag 277")
open(sys.argv[2], "wb").write(data)
PY
expect_problem "verify, 277 as INT16" "int16\.rpm: malformed fs-verity algorithm tag \(277\)" \
	"$RPMVERITY" verify --cert "$CERT" "$SCRATCH/int16.rpm"
expect_problem "verify --list, 277 as INT16" "tag \(277\)" "$RPMVERITY" verify --list "$SCRATCH/int16.rpm"
[ "$(cut -f4 "$OUT" | sort -u)" = malformed-signature ] || fail "verify --list: unusable tags not shown as malformed"

note "main header and payload untouched: rpm -K and the payload are as before"
expect_ok "rpm -K on the signed package" rpm -K --nosignature "$out"
cmp <(tail -c 100000 "$in") <(tail -c 100000 "$out") || fail "payload changed by signing"
finish "$TEST"
