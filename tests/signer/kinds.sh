# Every kind of file entry (sizes at Merkle boundaries up to 16 MiB+1,
# hardlinks, %ghost, %config, symlinks, directories, empty files), signed
# with RSA-2048 into another directory: the input stays as it was, rpm
# reads the result, and the signatures equal what `fsverity sign` makes.
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

note "main header and payload untouched: rpm -K and the payload are as before"
expect_ok "rpm -K on the signed package" rpm -K --nosignature "$out"
cmp <(tail -c 100000 "$in") <(tail -c 100000 "$out") || fail "payload changed by signing"
finish "$TEST"
