# Fixture for the fuzz replays: seed corpora made from real packages (the
# seed package built with every compressor rpm offers, unsigned and signed
# with each key kind and hash), in $CORPUS/<target>/. Small and regenerated
# on every run, so no binary corpus is committed.
. "$(dirname "$0")/../lib/testlib.sh"
set -e
: "${RPMVERITY:?set by ctest}" "${SEED_HEADER:?}" "${SPECS:?}" "${FUZZ_SRC:?}" "${CORPUS:?}"
scratch
rm -rf "$CORPUS"
pkg=$CORPUS/fuzz_package sig=$CORPUS/fuzz_verity_sig hdr=$CORPUS/fuzz_audit_header
mkdir -p "$pkg" "$sig" "$hdr" "$CORPUS/fuzz_package_fixed"
p256_key=$FUZZ_SRC/key/signing-key.pem p256_cert=$FUZZ_SRC/key/cert.pem
"$FUZZ_SRC/../../keys/rpm-verity-keygen" --type rsa --bits 2048 --subject /CN=seed/ "$SCRATCH/rsa" >/dev/null
rsa_key=$SCRATCH/rsa/signing-key.pem rsa_cert=$SCRATCH/rsa/cert.pem

gen="gen $TOOLS_DIR/gen-content.py"
for c in gzip:w1.gzdio bzip2:w1.bzdio xz:w1.xzdio lzma:w1.lzdio none:w0.ufdio zstd:w1.zstdio; do
	p=$(build_rpm "$FUZZ_SRC/seed.spec" "$SCRATCH/${c%%:*}" "${c#*:}" "$gen")
	cp "$p" "$pkg/${c%%:*}-unsigned.rpm"
	"$RPMVERITY" sign -j 1 --key "$p256_key" --cert "$p256_cert" "$p" >/dev/null
	cp "$p" "$pkg/${c%%:*}-p256-sha256.rpm"
done
p=$pkg/none-unsigned.rpm
for k in p256:sha512 rsa:sha256 rsa:sha512; do
	eval "key=\$${k%%:*}_key cert=\$${k%%:*}_cert"
	"$RPMVERITY" sign -j 1 --key "$key" --cert "$cert" --algo "${k#*:}" -o "$SCRATCH" "$p" >/dev/null
	mv "$SCRATCH/none-unsigned.rpm" "$pkg/none-${k%%:*}-${k#*:}.rpm"
done
cp "$pkg"/*.rpm "$CORPUS/fuzz_package_fixed/"
mkdir -p "$CORPUS/fuzz_payload_reader"
cp "$pkg"/*.rpm "$CORPUS/fuzz_payload_reader/"
for p in "$pkg"/*.rpm; do
	"$SEED_HEADER" "$p" "$hdr/$(basename "$p" .rpm).hdr"
done
# The rpmdb's blobs: these headers, and the same installed (rpm adds its
# own tags then, after the immutable region), as the rpmdb keeps them.
blobs=$CORPUS/fuzz_rpmdb_blob
mkdir -p "$blobs"
cp "$hdr"/*.hdr "$blobs/"
rpm --root "$SCRATCH/db" --dbpath /db --initdb
rpm --root "$SCRATCH/db" --dbpath /db --justdb --nodeps --noscripts \
	--nosignature --nodigest "${RPM_INSTALL_OPTS[@]}" -i "$pkg/none-p256-sha256.rpm"
python3 - "$SCRATCH/db/db/rpmdb.sqlite" "$blobs" <<'PY'
import sqlite3, sys
db = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
for hnum, blob in db.execute("SELECT hnum, blob FROM Packages"):
    open(f"{sys.argv[2]}/installed-{hnum}.blob", "wb").write(blob)
PY
# The tag decoder: a file count byte (0: the header's own), then the
# header, as the plugin and the audit get it from rpm.
mkdir -p "$CORPUS/fuzz_package_sigs"
for h in "$hdr"/*.hdr; do
	{ printf '\0'; cat "$h"; } >"$CORPUS/fuzz_package_sigs/$(basename "$h")"
	{ printf '\3'; cat "$h"; } >"$CORPUS/fuzz_package_sigs/two-files-$(basename "$h")"
done

# Signature entries: algorithm byte, the digest padded to 64 bytes, the DER
# (as fsverity-utils makes it, and padded with zeros as rpm returns it).
for size in 1 4097; do
	head -c "$size" /dev/urandom >"$SCRATCH/f"
	for k in p256 rsa; do
		for a in sha256:1 sha512:2; do
			eval "key=\$${k}_key cert=\$${k}_cert"
			fsverity sign "$SCRATCH/f" "$SCRATCH/der" --key "$key" --cert "$cert" \
				--hash-alg="${a%%:*}" >/dev/null
			d=$(fsverity digest --compact --hash-alg="${a%%:*}" "$SCRATCH/f")
			python3 - "${a#*:}" "$d" "$SCRATCH/der" "$sig/$k-${a%%:*}-$size" <<'PY'
import sys
alg, digest, der, out = sys.argv[1:]
seed = bytes([int(alg)]) + bytes.fromhex(digest).ljust(64, b"\0") + open(der, "rb").read()
open(out, "wb").write(seed)
open(out + "-padded", "wb").write(seed + bytes(100))
PY
		done
	done
done
{ printf '\x01'; head -c $((64 + 300)) /dev/zero; } >"$sig/unsigned"

# Manifests and signature files of the split flow, from the same packages:
# one package, all of them, and each hash algorithm and key kind.
man=$CORPUS/fuzz_manifest sigs=$CORPUS/fuzz_sigfile
mkdir -p "$man" "$sigs"
"$RPMVERITY" digests "$pkg/none-unsigned.rpm" -o "$man/one"
"$RPMVERITY" digests "$pkg"/*-unsigned.rpm -o "$man/all"
"$RPMVERITY" digests --algo sha512 "$pkg/zstd-unsigned.rpm" -o "$man/sha512"
for k in p256 rsa; do
	eval "key=\$${k}_key cert=\$${k}_cert"
	"$RPMVERITY" sign-digests --key "$key" --cert "$cert" "$man/one" -o "$sigs/$k-one" >/dev/null
done
"$RPMVERITY" sign-digests --key "$rsa_key" --cert "$rsa_cert" "$man/sha512" -o "$sigs/rsa-sha512" >/dev/null
# ... with the ima lines of sign-digests --ima-key: an ECDSA IMA key beside an
# RSA one, and RSA for both over sha512 digests.
"$RPMVERITY" sign-digests --key "$rsa_key" --cert "$rsa_cert" --ima-key "$p256_key" \
	--ima-cert "$p256_cert" "$man/all" -o "$sigs/rsa-ima-p256-all" 2>/dev/null
"$RPMVERITY" sign-digests --key "$rsa_key" --cert "$rsa_cert" --ima-key "$rsa_key" \
	--ima-cert "$rsa_cert" "$man/sha512" -o "$sigs/rsa-ima-rsa-sha512" 2>/dev/null
grep -q '^ima 0 0603' "$sigs/rsa-ima-rsa-sha512" || fail "no ima lines in the IMA signature file seed"
# The manifest parser meets ima lines only by mistake; a manifest carrying
# them lets mutations reach that refusal.
sed -e '1s/^rpm-verity-signatures /rpm-verity-manifest /' -e 's/^sig /file /' \
	-e 's/^\(file [0-9]* sha[0-9]* [0-9a-f]*\) .*/\1/' "$sigs/rsa-ima-p256-all" >"$man/with-ima-lines"

# IMA sigv3 values, as rpm keeps them (hex, tag 274) and as security.ima
# holds them (bytes), for RSA and ECDSA keys and both hash algorithms.
ima=$CORPUS/fuzz_ima_sig
mkdir -p "$ima"
for k in p256:sha256 rsa:sha512; do
	eval "key=\$${k%%:*}_key cert=\$${k%%:*}_cert"
	"$RPMVERITY" sign -j 1 --key "$key" --cert "$cert" --ima-key "$key" --ima-cert "$cert" \
		--algo "${k#*:}" -o "$SCRATCH" "$pkg/none-unsigned.rpm" >/dev/null
	n=0
	for v in $(rpm -qp --qf '[%{FILESIGNATURES}\n]' "$SCRATCH/none-unsigned.rpm"); do
		n=$((n + 1))
		printf '%s' "$v" >"$ima/${k%%:*}-$n.hex"
		python3 -c 'import sys; sys.stdout.buffer.write(bytes.fromhex(sys.argv[1]))' "$v" >"$ima/${k%%:*}-$n.bin"
	done
	[ $n -gt 0 ] || fail "no IMA signatures in the seed package"
done
for d in "$CORPUS"/*/; do
	[ -n "$(ls "$d")" ] || fail "no seeds in $d"
done
ls -l "$CORPUS"/*
