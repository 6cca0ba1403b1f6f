#!/bin/bash
# Builds the power-cut suite's packages: pc-big (one 16 MiB file and a few
# small ones) and pc-a, pc-b, pc-c (30 small files each), versions 1 and 2,
# signed with the distribution's key as distro/build signs its own, in two
# repositories dnf reads: OUTDIR/v1 and OUTDIR/v2 (createrepo_c).
# usage: make-packages.sh OUTDIR DISTRO   (needs $RPMVERITY_BUILD)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: make-packages.sh OUTDIR DISTRO}
distro=${2:?usage: make-packages.sh OUTDIR DISTRO}
signer=${RPMVERITY_BUILD:?RPMVERITY_BUILD must name the build tree}/signer/rpm-verity
keys=$(dirname "$distro")/keys/distribution
[ -r "$keys/signing-key.pem" ] || { echo "make-packages: no distribution key in $keys" >&2; exit 1; }

rm -rf "$out"
mkdir -p "$out/top" "$out/v1" "$out/v2"
for v in 1 2; do
	for spec in "pc-big 16 4" "pc-a 0 30" "pc-b 0 30" "pc-c 0 30"; do
		set -- $spec
		rpmbuild -bb --quiet --nodeps -D "_topdir $out/top" -D "pc_name $1" \
			-D "pc_version $v" -D "pc_big $2" -D "pc_small $3" \
			-D "_binary_payload w1.zstdio" "$here/powercut.spec" \
			>"$out/top/build.log" 2>&1 ||
			{ cat "$out/top/build.log" >&2; echo "make-packages: rpmbuild $1 $v failed" >&2; exit 1; }
		mv "$out/top/RPMS/noarch/$1-$v-1.noarch.rpm" "$out/v$v/"
	done
	ASAN_OPTIONS=detect_leaks=0 "$signer" sign --key "$keys/signing-key.pem" \
		--cert "$keys/cert.pem" "$out/v$v"/*.rpm >/dev/null
	createrepo_c -q "$out/v$v"
done
cp "$keys/cert.pem" "$out/cert.pem"
rm -rf "$out/top"
