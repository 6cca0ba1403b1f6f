# rpm 6's v6 package format (%_rpmformat 6, Fedora 43's default): no
# PAYLOADSHA256ALGO and no SIZE tags, new signature tags 278/279/999. A
# good v6 package is signed (in place of part of 999, keeping its size),
# passes rpm 6's rpm -K and installs through the plugin (ioctl_shim.so
# standing in for a verity kernel); one whose payload is damaged or cut
# short is refused with a message naming the file, a non-zero exit and the
# input unchanged. Runs where rpm (first on PATH) can build v6 packages:
# the rpm-matrix build against upstream-rpm/build's 6.x.
. "$(dirname "$0")/lib.sh"
: "${PLUGIN_BUILD:?set by ctest}" "${SHIM:?set by ctest}"
[ "$(rpm --eval '%{?_rpmformat}')" = 6 ] ||
	skip "this rpm ($(rpm --version)) does not write v6 packages"
scratch
key rsa2048

good=$(build_rpm "$SPECS/plain.spec" "$SCRATCH/in" w1.zstdio \
	"gen $TOOLS_DIR/gen-content.py" "_rpmformat 6")
[ "$(qf "$good" '%{RPMFORMAT}')" = 6 ] || fail "rpmbuild did not make a v6 package"
[ "$(qf "$good" '%{PAYLOADSHA256ALGO}')" = "(none)" ] ||
	fail "a v6 package with PAYLOADSHA256ALGO: this test no longer covers the default"
ok "rpmbuild made a v6 package without PAYLOADSHA256ALGO"

# Damaged copies: a byte flipped in the middle of the payload, the last
# 100 bytes cut off.
read -r payload size < <(python3 - "$good" <<'PY'
import os, struct, sys
d = open(sys.argv[1], "rb").read()
il, dl = struct.unpack(">II", d[96 + 8:96 + 16])
end = 96 + 16 + 16 * il + dl
end += (8 - end % 8) % 8
il, dl = struct.unpack(">II", d[end + 8:end + 16])
print(end + 16 + 16 * il + dl, len(d))
PY
)
bad=$SCRATCH/bad
mkdir "$bad"
cp "$good" "$bad/corrupt-payload.rpm"
python3 -c 'import sys; p, o = sys.argv[1], int(sys.argv[2]); d = bytearray(open(p, "rb").read()); d[o] ^= 0x55; open(p, "wb").write(d)' \
	"$bad/corrupt-payload.rpm" $(((payload + size) / 2))
head -c $((size - 100)) "$good" >"$bad/truncated.rpm"

# rpm 6 itself calls the damaged payload bad: the test's damage is real.
run rpm -K "$bad/corrupt-payload.rpm"
[ "$RC" != 0 ] || fail "rpm -K accepts the corrupted payload; the damage missed"
ok "rpm -K refuses the corrupted payload too"

snap=$(state "$bad")
expect_fail "sign a v6 package with a corrupted payload" \
	"corrupt-payload\.rpm: corrupted package \(payload digest mismatch\)" \
	"$RPMVERITY" sign --key "$KEY" --cert "$CERT" "$bad/corrupt-payload.rpm"
expect_fail "sign a truncated v6 package" \
	"truncated\.rpm: truncated package" \
	"$RPMVERITY" sign --key "$KEY" --cert "$CERT" "$bad/truncated.rpm"
expect_fail "sign -o of a corrupted v6 package" "corrupt-payload\.rpm: corrupted package" \
	"$RPMVERITY" sign --key "$KEY" --cert "$CERT" -o "$SCRATCH" "$bad/corrupt-payload.rpm"
same_state "refused v6 packages" "$bad" "$snap"
[ ! -e "$SCRATCH/corrupt-payload.rpm" ] || fail "sign -o wrote a corrupted package"
ok "corrupted and truncated v6 packages refused, inputs unchanged"

# A good one: signed, rpm -K, verify, and the plugin's install. Its tags
# fit into RESERVED (999), so the file keeps its size (reserved_space.sh
# checks the reserved tag byte for byte).
size=$(stat -c %s "$good")
expect_ok "sign a v6 package" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" "$good"
check_eq "size of the signed v6 package" "$(stat -c %s "$good")" "$size"
check_signed "$good" "$CERT"
# Every digest rpm 6 checks (header SHA-256 and SHA3-256, payload SHA-256,
# SHA-512 and SHA3-256) still matches. (OpenPGP signatures: the package has
# none, and rpm built without rpm-sequoia could not check one.)
expect_ok "rpm -K of the signed v6 package" rpm -K --nosignature "$good"
grep -q 'digests OK' "$OUT" || { _show rpm -K "$good"; fail "rpm -K: digests not OK"; }
run rpm -Kv "$good"
if grep -E 'digest: ' "$OUT" | grep -v -q ': OK$'; then
	_show rpm -Kv "$good"
	fail "rpm -Kv: a digest of the signed v6 package is not OK"
fi
grep -q 'Header SHA3-256 digest: OK' "$OUT" || { _show rpm -Kv "$good"; fail "rpm -Kv checked no header SHA3-256"; }
# The signature header keeps v6's tags (279 SHA3-256, 999 RESERVED) and
# gains 276/277.
sigtags() {
	python3 - "$1" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
il, = struct.unpack(">I", d[96 + 8:96 + 12])
print(" ".join(str(struct.unpack(">I", d[96 + 16 + 16 * i:96 + 20 + 16 * i])[0]) for i in range(il)))
PY
}
tags=" $(sigtags "$good") "
for t in 276 277 279 999; do
	case $tags in *" $t "*) ;; *) fail "signature tag $t missing after signing (tags:$tags)" ;; esac
done
ok "signature header after signing: $tags"

root=$SCRATCH/root
mkdir -p "$root"
rpm --root "$root" --dbpath /var/lib/rpm --initdb
export VERITY_SHIM_LOG=$SCRATCH/shim.log
: >"$VERITY_SHIM_LOG"
expect_ok "install the signed v6 package with the plugin" \
	env LD_PRELOAD="${VERITY_TEST_PRELOAD:-} $SHIM" \
	ASAN_OPTIONS=detect_leaks=0 \
	"${VERITY_TEST_RPM:-rpm}" --root "$root" --dbpath /var/lib/rpm \
	--nodeps "${RPM_INSTALL_OPTS[@]}" --noscripts \
	--define "__plugindir $PLUGIN_BUILD" \
	--define "__transaction_verity %{__plugindir}/verity.so" \
	--define "_fsverity_policy enforce" -i "$good"
want=$(qf "$good" '[%{FILEMODES:perms}\n]' | grep -c '^-' || true)
got=$(grep -c ' result=ok$' "$VERITY_SHIM_LOG" || true)
# %config files are signed but not protected (common/file_rule.h).
want=$((want - 1))
[ "$got" = "$want" ] || { cat "$VERITY_SHIM_LOG" >&2; fail "the plugin enabled verity on $got files, want $want"; }
ok "the plugin protected the $got regular files of the v6 package"
finish
