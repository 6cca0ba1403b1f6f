#!/bin/bash
# Host-side fixture for the VM end-to-end tests with packages signed by the
# rpmsign Debian ships (shipped-rpm/chroot's SUITE chroot, with
# rpm-sequoia): vm-demo-1 and vm-demo-2 built by its rpmbuild and signed by
# its `rpmsign --addsign --signverity` with make-packages.sh's trusted key.
# Its own `rpmsign --delsign` then removes the OpenPGP signature, which the
# upstream rpms built here (upstream-rpm/build, without rpm-sequoia) would
# call BAD; the fs-verity signatures stay. Output in OUTDIR, laid out as
# make-packages.sh's (so tests/vm/e2e-packages.sh runs on it):
#   trusted/                      make-packages.sh's trusted key
#   vm-demo-1.rpm vm-demo-2.rpm   signed by the shipped rpmsign
#   payload/<package file name>/  each package's files, as built
# usage: make-shipped-packages.sh SUITE PACKAGES OUTDIR
#   (PACKAGES: make-packages.sh's output; needs root, as chroot does)
set -euo pipefail
trap 'echo "make-shipped-packages: line $LINENO failed (status $?)" >&2' ERR
src=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$src/../.." && pwd)
suite=${1:?usage: make-shipped-packages.sh SUITE PACKAGES OUTDIR}
pkgs=${2:?usage: make-shipped-packages.sh SUITE PACKAGES OUTDIR}
out=${3:?usage: make-shipped-packages.sh SUITE PACKAGES OUTDIR}
[ -r "$pkgs/trusted/cert.pem" ] ||
	{ echo "make-shipped-packages: $pkgs: no trusted key (tests/vm/make-packages.sh)" >&2; exit 1; }

rm -rf "$out"
mkdir -p "$out/top/gnupg" "$out/payload"
chmod 700 "$out/top/gnupg"
cp -a "$pkgs/trusted" "$out/"
key=$out/trusted
in_chroot() {
	"$top/shipped-rpm/run" "$suite" --bind "$out" --bind "$src" \
		env GNUPGHOME="$out/top/gnupg" "$@" >>"$out/top/log" 2>&1 ||
		{ tail -n 30 "$out/top/log" >&2; echo "make-shipped-packages: $1 failed in $suite's chroot" >&2; exit 1; }
}
in_chroot rpm --version
in_chroot gpg --batch --passphrase '' --quick-gen-key "vm test <vm@example.invalid>" \
	rsa2048 sign never
for v in 1 2; do
	in_chroot rpmbuild -bb --quiet --nodeps -D "_topdir $out/top" -D "vd_name vm-demo" \
		-D "vd_version $v" -D "_binary_payload w1.zstdio" -D "debug_package %{nil}" \
		-D "_build_id_links none" "$src/vm-demo.spec"
	p=$out/vm-demo-$v.rpm
	mv "$out/top/RPMS/x86_64/vm-demo-$v-1.x86_64.rpm" "$p"
	in_chroot rpmsign --addsign --signverity --fskpath "$key/signing-key.pem" \
		--certpath "$key/cert.pem" -D "_gpg_name vm test <vm@example.invalid>" \
		-D "__gpg /usr/bin/gpg" "$p"
	in_chroot rpmsign --delsign "$p"
	mkdir -p "$out/payload/vm-demo-$v.rpm"
	"$top/shipped-rpm/run" "$suite" --bind "$out" rpm2cpio "$p" |
		(cd "$out/payload/vm-demo-$v.rpm" && cpio -idm --quiet)
done
grep -m1 '^RPM version' "$out/top/log" | sed "s/^/make-shipped-packages: $suite's /"
rm -rf "$out/top"
echo "make-shipped-packages: packages signed by $suite's rpmsign in $out"
