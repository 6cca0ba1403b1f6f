#!/bin/bash
# Host-side fixture for the IMA appraisal VM tests: makes the keys (an
# fs-verity key, IMA keys whose certificates the guest kernel's test CA signed
# so .ima takes them, and one signed by a CA the kernel does not know), builds
# tests/vm/vm-ima.spec and signs it with fs-verity and IMA signatures. Output
# in OUTDIR:
#   verity/{signing-key.pem,cert.pem,cert.der}   the fs-verity key
#   ima/, ima-ec/ {ima-key.pem,ima-cert.pem,ima-cert.der}
#                        RSA-2048 and ECDSA P-256 IMA keys, signed by the test CA
#   rogue-ca/, rogue/    a CA the kernel does not trust, and an IMA key it signed
#   vm-ima-1.rpm         signed: fs-verity + IMA (RSA)
#   vm-ima-ec-1.rpm      signed: fs-verity + IMA (ECDSA P-256)
#   vm-ima-rogue-1.rpm   signed: fs-verity + IMA by the rogue key
# usage: make-ima-packages.sh OUTDIR   (needs $RPMVERITY_BUILD and a built
# guest kernel, whose test CA sits beside it)
set -euo pipefail
src=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$src/../.." && pwd)
out=${1:?usage: make-ima-packages.sh OUTDIR}
build=${RPMVERITY_BUILD:?RPMVERITY_BUILD must name the build tree}
signer=$build/signer/rpm-verity
keygen=$top/keys/rpm-verity-keygen
die() { echo "make-ima-packages: $*" >&2; exit 1; }
[ -x "$signer" ] || die "$signer: not built"
ca=$("$top/vm/kernel-ca") || exit 1

rm -rf "$out"
mkdir -p "$out/top" "$out/rogue-ca"
q() { "$@" >/dev/null || die "failed: $*"; }
q "$keygen" --subject "/CN=rpm-verity IMA VM test fs-verity key" --days 30 \
	--ca "$ca.pem" --ca-key "$ca.key" "$out/verity"
q "$keygen" --ima --ca "$ca.pem" --ca-key "$ca.key" --days 30 \
	--subject "/CN=rpm-verity IMA VM test RSA key" "$out/ima"
q "$keygen" --ima --ca "$ca.pem" --ca-key "$ca.key" --days 30 --type ecdsa \
	--subject "/CN=rpm-verity IMA VM test P-256 key" "$out/ima-ec"
openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 30 -subj "/CN=rogue CA/" \
	-addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign \
	-keyout "$out/rogue-ca/ca.key" -out "$out/rogue-ca/ca.pem" 2>/dev/null || die "cannot make the rogue CA"
q "$keygen" --ima --ca "$out/rogue-ca/ca.pem" --ca-key "$out/rogue-ca/ca.key" --days 30 \
	--subject "/CN=rpm-verity IMA VM test rogue key" "$out/rogue"

# pkg NAME IMA-KEYDIR: build vm-ima.spec as NAME, sign it with both kinds.
pkg() {
	local name=$1 ik=$out/$2 p=$out/$1-1.rpm
	rpmbuild -bb --quiet --nodeps -D "_topdir $out/top" -D "vi_name $name" \
		-D "_binary_payload w1.zstdio" -D "debug_package %{nil}" -D "_build_id_links none" \
		"$src/vm-ima.spec" >"$out/top/build-$name.log" 2>&1 ||
		{ cat "$out/top/build-$name.log" >&2; die "rpmbuild $name failed"; }
	mv "$out/top/RPMS/x86_64/$name-1-1.x86_64.rpm" "$p"
	q "$signer" sign --key "$out/verity/signing-key.pem" --cert "$out/verity/cert.pem" \
		--ima-key "$ik/ima-key.pem" --ima-cert "$ik/ima-cert.pem" "$p"
	q "$signer" verify --cert "$out/verity/cert.pem" --ima-cert "$ik/ima-cert.pem" "$p"
}
pkg vm-ima ima
pkg vm-ima-ec ima-ec
pkg vm-ima-rogue rogue
rm -rf "$out/top"
echo "make-ima-packages: test packages in $out"
