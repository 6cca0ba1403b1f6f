#!/bin/bash
# Host-side fixture for the VM end-to-end tests: builds the vm-demo test
# packages (fast compression), makes a trusted and an untrusted signing key,
# signs with the project's signer, and unpacks each payload for comparison.
# The guest reads the result read-only over 9p. Output in OUTDIR:
#   trusted/{signing-key.pem,cert.pem,cert.der}  untrusted/... (not
#                                 configured), both signed by the guest
#                                 kernel's test CA (vm/kernel-ca), as the
#                                 restricted .fs-verity keyring requires
#   rogue/...                     self-signed: the kernel refuses it
#   vm-demo-1.rpm vm-demo-2.rpm   signed with the trusted key
#   vm-demo-2-big.rpm             vm-demo-2 with a 32 MiB last file, zz-big
#                                 (tests/vm/fault-*.sh), signed likewise
#   vm-other-1.rpm                signed with the untrusted key
#   vm-plain-1.rpm                no fs-verity signatures
#   vm-ipe-1.rpm                  tests/vm/vm-ipe.spec (a static binary, a
#                                 library), signed with the trusted key
#   vm-badsig-1.rpm, vm-swapsig-1.rpm
#                                 vm-demo-1 with every signature broken inside
#                                 its PKCS#7 shell, or moved to another file
#   vm-rpmsign-1.rpm              vm-demo-1 built and signed by Debian's
#                                 rpm 4.18 (rpmbuild, rpmsign --addsign
#                                 --signverity with the trusted key and a
#                                 throwaway GPG key, whose signature
#                                 --delsign then removes: the upstream rpms
#                                 built here cannot read OpenPGP and call it
#                                 BAD), whatever rpm this build uses; left
#                                 out without Debian's rpmsign
#   payload/<package file name>/  each package's files, as built
# usage: make-packages.sh OUTDIR   (needs $RPMVERITY_BUILD: the build tree)
set -euo pipefail
# No silent exit: a command that fails without a word still names its line.
trap 'echo "make-packages: line $LINENO failed (status $?)" >&2' ERR
src=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$src/../.." && pwd)
out=${1:?usage: make-packages.sh OUTDIR}
build=${RPMVERITY_BUILD:?RPMVERITY_BUILD must name the build tree}
signer=$build/signer/rpm-verity
[ -x "$signer" ] || { echo "make-packages: $signer: not built" >&2; exit 1; }

rm -rf "$out"
mkdir -p "$out/top" "$out/payload"
ca=$("$top/vm/kernel-ca")
for k in trusted untrusted; do
	"$top/keys/rpm-verity-keygen" --subject "/CN=rpm-verity VM test $k" --days 30 \
		--ca "$ca.pem" --ca-key "$ca.key" "$out/$k" >/dev/null
done
"$top/keys/rpm-verity-keygen" --subject "/CN=rpm-verity VM test rogue" --days 30 \
	"$out/rogue" >/dev/null

# build NAME VERSION [BIG_MIB]: rpmbuild the spec, result in
# $out/NAME-VERSION.rpm (with BIG_MIB: a zz-big file, in NAME-VERSION-big.rpm)
build() {
	local file=$1-$2 big=()
	[ $# -lt 3 ] || { file=$1-$2-big; big=(-D "vd_big $3"); }
	rpmbuild -bb --quiet --nodeps -D "_topdir $out/top" -D "vd_name $1" -D "vd_version $2" \
		"${big[@]}" \
		-D "_binary_payload w1.zstdio" -D "debug_package %{nil}" -D "_build_id_links none" \
		"$src/vm-demo.spec" >"$out/top/build-$file.log" 2>&1 ||
		{ cat "$out/top/build-$file.log" >&2; echo "make-packages: rpmbuild $file failed" >&2; exit 1; }
	mv "$out/top/RPMS/x86_64/$1-$2-1.x86_64.rpm" "$out/$file.rpm"
	mkdir -p "$out/payload/$file.rpm"
	(cd "$out/payload/$file.rpm" && rpm2cpio "$out/$file.rpm" | cpio -idm --quiet)
}
build vm-demo 1
build vm-demo 2
build vm-demo 2 32
build vm-other 1
build vm-plain 1
rpmbuild -bb --quiet --nodeps -D "_topdir $out/top" -D "_binary_payload w1.zstdio" \
	-D "debug_package %{nil}" -D "_build_id_links none" \
	"$src/vm-ipe.spec" >"$out/top/build-vm-ipe.log" 2>&1 ||
	{ cat "$out/top/build-vm-ipe.log" >&2; echo "make-packages: rpmbuild vm-ipe failed" >&2; exit 1; }
mv "$out/top/RPMS/x86_64/vm-ipe-1-1.x86_64.rpm" "$out/vm-ipe-1.rpm"

sign() { # KEYDIR PACKAGE...
	local k=$out/$1; shift
	"$signer" sign --key "$k/signing-key.pem" --cert "$k/cert.pem" "$@" ||
		{ echo "make-packages: rpm-verity sign $* failed" >&2; exit 1; }
}
sign trusted "$out/vm-demo-1.rpm" "$out/vm-demo-2.rpm" "$out/vm-demo-2-big.rpm" "$out/vm-ipe-1.rpm"
sign untrusted "$out/vm-other-1.rpm"
"$signer" verify --cert "$out/trusted/cert.pem" "$out/vm-demo-1.rpm" "$out/vm-demo-2.rpm" >/dev/null ||
	{ echo "make-packages: the signed packages do not verify" >&2; exit 1; }
# Signatures only the kernel can refuse: the plugin checks no more than the
# PKCS#7 outer shape. badsig: the SignedData SEQUENCE tag (byte 19, after the
# ContentInfo, OID and [0] headers) made a SET; swapsig: each file gets the
# next file's signature, valid but for other contents.
tagedit=$build/tests/tools/verity-tag-edit
"$tagedit" "$out/vm-demo-1.rpm" --dump >"$out/top/sigs.txt"
python3 - "$out/top" <<'PY'
import base64, sys
top = sys.argv[1]
lines = open(f"{top}/sigs.txt").read().split("\n")[:-1]
def broken(b64):
    der = bytearray(base64.b64decode(b64))
    assert der[15] == 0xa0 and der[19] == 0x30, "unexpected DER layout"
    der[19] = 0x31
    return base64.b64encode(der).decode()
signed = [i for i, l in enumerate(lines) if l]
swapped = list(lines)
for a, b in zip(signed, signed[1:] + signed[:1]):
    swapped[a] = lines[b]
open(f"{top}/badsig.txt", "w").write("".join((broken(l) if l else "") + "\n" for l in lines))
open(f"{top}/swapsig.txt", "w").write("".join(l + "\n" for l in swapped))
PY
for v in badsig swapsig; do
	"$tagedit" "$out/vm-demo-1.rpm" "$out/vm-$v-1.rpm" --sigs "$out/top/$v.txt" ||
		{ echo "make-packages: verity-tag-edit $v failed" >&2; exit 1; }
done

# The format of tags 276/277 is unchanged from 4.18 to 6.x: a package
# rpmsign 4.18 signed must install with our plugin under any rpm.
if [ -x /usr/bin/rpmsign ] && [ -x /usr/bin/rpmbuild ] && command -v gpg >/dev/null; then
	export GNUPGHOME=$out/top/gnupg
	mkdir -m 700 "$GNUPGHOME"
	# Once seen failing at random (a fresh machine's CI, under rpm 6's
	# matrix, beside signer_setup): then silently, as its output went to
	# /dev/null. Now its words are kept, and a second try follows a fresh
	# agent, since an agent slow to start is gpg's usual reason.
	genkey() {
		gpg --batch --passphrase '' --quick-gen-key "vm test <vm@example.invalid>" \
			rsa2048 sign never >>"$out/top/gpg.log" 2>&1
	}
	genkey || { gpgconf --kill gpg-agent; sleep 1; genkey; } ||
		{ cat "$out/top/gpg.log" >&2; echo "make-packages: gpg could not make the throwaway key" >&2; exit 1; }
	/usr/bin/rpmbuild -bb --quiet --nodeps -D "_topdir $out/top/deb" -D "vd_name vm-demo" \
		-D "vd_version 1" -D "_binary_payload w1.zstdio" -D "debug_package %{nil}" \
		-D "_build_id_links none" "$src/vm-demo.spec" >"$out/top/build-deb.log" 2>&1 &&
		mv "$out/top/deb/RPMS/x86_64/vm-demo-1-1.x86_64.rpm" "$out/vm-rpmsign-1.rpm" &&
		/usr/bin/rpmsign --addsign --signverity --fskpath "$out/trusted/signing-key.pem" \
			--certpath "$out/trusted/cert.pem" -D "_gpg_name vm test <vm@example.invalid>" \
			-D "__gpg /usr/bin/gpg" "$out/vm-rpmsign-1.rpm" >>"$out/top/build-deb.log" 2>&1 &&
		/usr/bin/rpmsign --delsign "$out/vm-rpmsign-1.rpm" >>"$out/top/build-deb.log" 2>&1 ||
		{ cat "$out/top/build-deb.log" >&2; echo "make-packages: Debian's rpmsign failed" >&2; exit 1; }
	gpgconf --kill gpg-agent
	mkdir -p "$out/payload/vm-rpmsign-1.rpm"
	(cd "$out/payload/vm-rpmsign-1.rpm" && rpm2cpio "$out/vm-rpmsign-1.rpm" | cpio -idm --quiet)
fi
rm -rf "$out/top"
echo "make-packages: test packages in $out"
