#!/bin/bash
# Host-side fixture for the audit VM test and bench/audit-bench: a package of
# N small regular files (default 20,000) in directories of 1,000, each with
# distinct content, signed by rpm-verity with a key made here. Output in
# OUTDIR: vm-tree.rpm, keys/{signing-key.pem,cert.pem,cert.der}. Reuses
# OUTDIR when it already holds a package of N files.
# usage: make-audit-tree.sh OUTDIR [N]   (needs $RPMVERITY_BUILD)
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: make-audit-tree.sh OUTDIR [N]}
n=${2:-20000}
build=${RPMVERITY_BUILD:?RPMVERITY_BUILD must name the build tree}
signer=$build/signer/rpm-verity
[ -x "$signer" ] || { echo "make-audit-tree: $signer: not built" >&2; exit 1; }
ca=$("$top/vm/kernel-ca")
# Reused while its certificate is signed by this kernel's CA.
if [ -r "$out/ready-$n" ] &&
	openssl verify -CAfile "$ca.pem" "$out/keys/cert.pem" >/dev/null 2>&1; then
	echo "make-audit-tree: reusing $out ($n files)"
	exit 0
fi
rm -rf "$out"
mkdir -p "$out/top"
"$top/keys/rpm-verity-keygen" --subject "/CN=rpm-verity audit tree" --days 30 \
	--ca "$ca.pem" --ca-key "$ca.key" "$out/keys" >/dev/null
cat >"$out/top/vm-tree.spec" <<SPEC
Name: vm-tree
Version: 1
Release: 1
Summary: $n small files for the rpm-verity audit test and benchmark
License: MIT
BuildArch: noarch
AutoReqProv: no
%description
Many small files, each with its own content.
%install
python3 - %{buildroot}/usr/share/vm-tree $n <<'PY'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    d = os.path.join(root, "d%03d" % (i // 1000))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "f%05d" % i), "w") as f:
        f.write("vm-tree file %d\n" % i)
PY
%files
/usr/share/vm-tree
SPEC
rpmbuild -bb --quiet --nodeps -D "_topdir $out/top" -D "_binary_payload w1.zstdio" \
	-D "__os_install_post %{nil}" -D "_build_id_links none" \
	"$out/top/vm-tree.spec" >"$out/top/build.log" 2>&1 ||
	{ cat "$out/top/build.log" >&2; echo "make-audit-tree: rpmbuild failed" >&2; exit 1; }
mv "$out/top/RPMS/noarch/vm-tree-1-1.noarch.rpm" "$out/vm-tree.rpm"
"$signer" sign --key "$out/keys/signing-key.pem" --cert "$out/keys/cert.pem" "$out/vm-tree.rpm" >/dev/null
rm -rf "$out/top"
touch "$out/ready-$n"
echo "make-audit-tree: $out/vm-tree.rpm ($n files)"
