#!/bin/bash
# "Who can sign an IPE policy": which keys the kernel takes a
# signed IPE policy from, and the key layout under which a package-signing
# key cannot replace the machine's execution policy. Made for Linux 7.3; the
# same holds on 6.12 (README, "Who can sign an IPE policy").
#
# The kernel checks a policy's PKCS#7 signature with verify_pkcs7_signature()
# against the builtin trusted keys (and the secondary and platform ones as
# the IPE_POLICY_SIG_* options say), following the certificates the message
# itself carries up to a key there; it checks no key usage, basicConstraints
# or extendedKeyUsage on the way. So every key whose certificate chains to
# the kernel's CA can sign a policy. What keeps package keys out is a package
# CA that chains to nothing the kernel trusts, and .fs-verity restricted to
# that CA (rpm-verity-load-certs --trust ca:FILE, the kernel's
# key_or_keyring restriction) instead of builtin_and_secondary_trusted. In
# one boot:
#   1  .fs-verity pinned to the package CA by rpm-verity-load-certs --trust
#      ca:FILE: a package certificate loads; a certificate of the kernel's
#      CA is refused there (by the loader, and by keyctl padd); neither the
#      package CA nor a package certificate gets onto the secondary keyring;
#   2  the kernel's verdicts on the same policy signed by each key (new_policy):
#      accepted: the policy key (the kernel's CA signed it); and, the gap,
#      a package key the kernel's CA signed (today's layout), a certificate
#      such a package key (CA:FALSE, keyUsage digitalSignature) issued with
#      its issuer's in the message, and a key under an intermediate package
#      CA the kernel's CA signed, with the intermediate in the message;
#      refused (ENOKEY, with IPE's policy-load audit record, errno -126):
#      that intermediate's key without the intermediate, and the package CA
#      of item 1, its key, and its package key with and without its
#      certificate in the message;
#   3  the intermediate CA added to the secondary keyring at run time: its
#      key's policy without the intermediate is taken exactly when the
#      kernel has IPE_POLICY_SIG_SECONDARY_KEYRING;
#   4  under the policy key's policy, enforced: a static binary signed by the
#      package key runs (fsverity_signature=TRUE), an unsigned copy is
#      refused with EACCES and an IPE audit record.
# usage: ipe-signer.sh   (host side: needs root, QEMU, openssl, gcc -static,
# fsverity; $RPMVERITY_BUILD for ipe-probe and rpm-verity-load-certs; boots
# the guest RPMVERITY_KERNEL names, and skips when its config has no IPE)
if [ "${1:-}" != --guest ]; then
	set -u
	here=$(cd "$(dirname "$0")" && pwd)
	top=$(cd "$here/../.." && pwd)
	. "$here/../lib/testlib.sh"
	needs_qemu
	name=${RPMVERITY_KERNEL:-default}
	secondary=unknown
	case $name in
	*/*) ;; # a bzImage by path: the guest finds out about IPE
	*)
		config=$("$top/vm/cache-dir")/kernel/$name/build/.config
		[ -r "$config" ] || bail "$config: no config of kernel '$name' (vm/build-kernel --name $name)"
		grep -q '^CONFIG_SECURITY_IPE=y' "$config" ||
			skip "kernel '$name' has no IPE (CONFIG_SECURITY_IPE); run with RPMVERITY_KERNEL=7.3"
		secondary=n
		grep -q '^CONFIG_IPE_POLICY_SIG_SECONDARY_KEYRING=y' "$config" && secondary=y
		;;
	esac
	build=${RPMVERITY_BUILD:?RPMVERITY_BUILD must name the build tree}
	for f in tests/tools/ipe-probe boot/rpm-verity-load-certs; do
		[ -x "$build/$f" ] || bail "$build/$f: not built"
	done
	tool=$top/keys/rpm-verity-ipe-policy
	ca=$("$top/vm/kernel-ca") || bail "no test CA for the guest kernels"
	# Not under /tmp: the guest's /tmp is its own.
	work=$(mktemp -d "${TMPDIR:-/var/tmp}/ipe-signer.XXXXXX") || bail "mktemp"
	at_exit "rm -rf '$work'"

	keygen() { "$top/keys/rpm-verity-keygen" --days 30 "$@" >/dev/null || bail "rpm-verity-keygen $*"; }
	# make_ca DIR SUBJECT [CACERT CAKEY]: a CA certificate (CA:TRUE,
	# keyCertSign), self-signed or signed by CACERT's key, and its key.
	make_ca() {
		local dir=$1 subj=$2
		mkdir -p "$dir"
		printf '%s\n' '[req]' 'distinguished_name = dn' '[dn]' '[ext]' \
			'basicConstraints = critical, CA:TRUE' 'keyUsage = critical, keyCertSign, cRLSign' \
			'subjectKeyIdentifier = hash' 'authorityKeyIdentifier = keyid' >"$dir/ca.cnf"
		openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 \
			-out "$dir/signing-key.pem" 2>/dev/null || bail "$dir: openssl genpkey"
		if [ $# = 2 ]; then
			openssl req -new -x509 -config "$dir/ca.cnf" -extensions ext -sha256 -days 30 \
				-key "$dir/signing-key.pem" -subj "$subj" -out "$dir/cert.pem" 2>/dev/null
		else
			openssl req -new -config "$dir/ca.cnf" -key "$dir/signing-key.pem" -subj "$subj" \
				-out "$dir/req.csr" 2>/dev/null &&
				openssl x509 -req -in "$dir/req.csr" -CA "$3" -CAkey "$4" -sha256 -days 30 \
					-set_serial "0x1$(openssl rand -hex 15)" -extfile "$dir/ca.cnf" \
					-extensions ext -out "$dir/cert.pem" 2>/dev/null
		fi || bail "$dir: cannot make the CA certificate"
		openssl x509 -in "$dir/cert.pem" -outform DER -out "$dir/cert.der" || bail "$dir: DER"
	}
	# sign_policy NAME SIGNER [CERT...]: NAME.p7s, the policy NAME signed
	# with SIGNER's key; the CERTs go into the message after SIGNER's own.
	sign_policy() {
		local name=$1 signer=$2
		shift 2
		"$tool" make --name "$name" --version 0.0.1 >"$work/$name.txt" || bail "make $name"
		if [ $# = 0 ]; then
			"$tool" sign --key "$signer/signing-key.pem" --cert "$signer/cert.pem" \
				"$work/$name.txt" "$work/$name.p7s" || bail "sign $name"
			return
		fi
		cat "$@" >"$work/$name.chain.pem"
		# rpm-verity-ipe-policy sign's options, and the extra certificates.
		openssl smime -sign -binary -noattr -nodetach -nosmimecap -outform der \
			-signer "$signer/cert.pem" -inkey "$signer/signing-key.pem" \
			-certfile "$work/$name.chain.pem" -in "$work/$name.txt" -out "$work/$name.p7s" ||
			bail "sign $name with $signer and $*"
	}

	# The policy key and today's package key: certificates of the kernel's CA.
	keygen --subject "/CN=rpm-verity test IPE policy signer" --ca "$ca.pem" --ca-key "$ca.key" \
		"$work/policy"
	keygen --subject "/CN=rpm-verity test package signer (kernel CA)" --ca "$ca.pem" \
		--ca-key "$ca.key" "$work/pkg-kernelca"
	# A certificate that package key issued, though its own says CA:FALSE
	# and keyUsage digitalSignature only.
	keygen --subject "/CN=rpm-verity test key a package key issued" \
		--ca "$work/pkg-kernelca/cert.pem" --ca-key "$work/pkg-kernelca/signing-key.pem" \
		"$work/minted"
	# An intermediate package CA signed by the kernel's CA, and its package key.
	make_ca "$work/inter" "/CN=rpm-verity test package CA under the kernel CA" "$ca.pem" "$ca.key"
	keygen --subject "/CN=rpm-verity test package signer (intermediate)" \
		--ca "$work/inter/cert.pem" --ca-key "$work/inter/signing-key.pem" "$work/pkg-inter"
	# The separation: a package CA of its own, and its package key.
	make_ca "$work/pkgca" "/CN=rpm-verity test package CA"
	keygen --subject "/CN=rpm-verity test package signer" \
		--ca "$work/pkgca/cert.pem" --ca-key "$work/pkgca/signing-key.pem" "$work/pkg"

	sign_policy sig-policy "$work/policy"
	sign_policy sig-pkg-kernelca "$work/pkg-kernelca"
	sign_policy sig-minted "$work/minted" "$work/pkg-kernelca/cert.pem"
	sign_policy sig-inter-alone "$work/pkg-inter"
	sign_policy sig-inter-chain "$work/pkg-inter" "$work/inter/cert.pem"
	sign_policy sig-inter-secondary "$work/pkg-inter"
	sign_policy sig-pkg "$work/pkg"
	sign_policy sig-pkg-chain "$work/pkg" "$work/pkgca/cert.pem"
	sign_policy sig-pkgca "$work/pkgca"

	# What a package brings: a static binary (nothing unsigned is mapped
	# into it), with the package key's fs-verity signature.
	printf '#include <stdio.h>\nint main(void) { puts("signed by a package key"); return 0; }\n' \
		>"$work/hello.c"
	gcc -static -o "$work/hello" "$work/hello.c" || bail "gcc -static (libc6-dev)"
	fsverity sign "$work/hello" "$work/hello.sig" --key "$work/pkg/signing-key.pem" \
		--cert "$work/pkg/cert.pem" >/dev/null || bail "fsverity sign"

	"$top/vm/run" "$0" --guest "$work" "$secondary"
	exit $?
fi
shift
. "$(dirname "$0")/lib.sh"
W=${1:?usage: ipe-signer.sh --guest WORKDIR y|n|unknown}
secondary=${2:-unknown}
IPE=/sys/kernel/security/ipe
mountpoint -q /sys/kernel/security || mount -t securityfs securityfs /sys/kernel/security ||
	bail "cannot mount securityfs"
[ -d $IPE ] || skip "kernel $(uname -r) has no IPE ($IPE missing)"
probe=${BUILD:?}/tests/tools/ipe-probe
echo 10000 >/proc/sys/kernel/printk_ratelimit_burst	# keep every audit record
T=/tmp/ipe-signer
mkdir -p $T
echo "# kernel $(uname -r), IPE_POLICY_SIG_SECONDARY_KEYRING=$secondary"

# padd_refused WHAT KEYRING CERT: the kernel refuses CERT on KEYRING.
padd_refused() {
	local err
	if err=$(keyctl padd asymmetric "" "$2" <"$3" 2>&1); then
		fail "$1: the kernel took it (key $err)"
	else
		ok "$1 (${err##*: })"
	fi
}

echo "# 1: .fs-verity pinned to the package CA, which no kernel keyring holds"
check_eq ".fs-verity is empty" "$(keyctl rlist %:.fs-verity 2>&1)" ""
loader=$BUILD/boot/rpm-verity-load-certs
"$loader" --no-config --trust "ca:$W/pkgca/cert.pem" "$W/pkg/cert.pem" >$T/load.out 2>&1
rc=$?
sed 's/^/  /' $T/load.out
check_eq "rpm-verity-load-certs --trust ca:PACKAGE-CA loads the package certificate" "$rc" 0
check "  and says what restricts the keyring" \
	grep -qF "keyring restricted to certificates signed by the CA in $W/pkgca/cert.pem" $T/load.out
check_eq ".fs-verity holds the package certificate only" "$(keyctl rlist %:.fs-verity | wc -w)" 1
"$loader" --no-config --trust "ca:$W/pkgca/cert.pem" "$W/policy/cert.pem" >$T/load.out 2>&1
rc=$?
sed 's/^/  /' $T/load.out
check_eq "the loader refuses a certificate of the kernel's CA there (exit 1)" "$rc" 1
check "  naming the reason" grep -qF "not signed by the keyring's CA" $T/load.out
padd_refused "a certificate of the kernel's CA (the policy key's) is refused on .fs-verity" \
	%:.fs-verity "$W/policy/cert.der"
padd_refused "the package certificate is refused on the secondary keyring" \
	%:.secondary_trusted_keys "$W/pkg/cert.der"
padd_refused "the package CA is refused on the secondary keyring" \
	%:.secondary_trusted_keys "$W/pkgca/cert.der"

echo "# 2: the same policy, signed by each key (ipe/new_policy)"
dmesg -C
# verdict NAME WANT WHAT: the kernel's answer to NAME.p7s is WANT.
verdict() {
	local st
	st=$(write_status $IPE/new_policy "$W/$1.p7s")
	check_eq "$3: $st" "$st" "$2"
}
verdict sig-policy ok "the policy key (a certificate of the kernel's CA)"
verdict sig-pkg-kernelca ok \
	"GAP, today's layout: a package key whose certificate the kernel's CA signed"
verdict sig-minted ok \
	"GAP: a key that package key certified (its certificate CA:FALSE, digitalSignature only), both certificates in the message"
verdict sig-inter-chain ok \
	"GAP: a package key under an intermediate CA the kernel's CA signed, the intermediate in the message"
verdict sig-inter-alone ENOKEY "the same key without the intermediate in the message"
verdict sig-pkg ENOKEY "the package key under the package CA"
verdict sig-pkg-chain ENOKEY "the same with the package CA's certificate in the message"
verdict sig-pkgca ENOKEY "the package CA's own key"
sleep 1
dmesg | grep 'type=1422' | sed 's/^/  logged: /'
check_eq "IPE logs each refusal: a policy-load record with res=0 errno=-126 (ENOKEY)" \
	"$(dmesg | grep 'type=1422' | grep -c 'policy_name=? .* res=0 errno=-126')" 4
check_eq "and each policy it took, by name (res=1)" \
	"$(dmesg | grep 'type=1422' | grep 'res=1' | grep -o 'policy_name="[a-z-]*"' | sort | paste -sd' ')" \
	'policy_name="sig-inter-chain" policy_name="sig-minted" policy_name="sig-pkg-kernelca" policy_name="sig-policy"'
check "no policy of a refused signer was loaded" bash -c \
	"cd $IPE/policies && ! ls -d sig-inter-alone sig-pkg sig-pkg-chain sig-pkgca 2>/dev/null"

echo "# 3: the intermediate CA on the secondary keyring (signed by the kernel's CA)"
check "keyctl padd of the intermediate to .secondary_trusted_keys" \
	bash -c "keyctl padd asymmetric '' %:.secondary_trusted_keys <'$W/inter/cert.der' >/dev/null"
case $secondary in
y) verdict sig-inter-secondary ok \
	"its key's policy without the intermediate (IPE_POLICY_SIG_SECONDARY_KEYRING=y)" ;;
n) verdict sig-inter-secondary ENOKEY \
	"its key's policy without the intermediate (IPE_POLICY_SIG_SECONDARY_KEYRING=n)" ;;
*) note "IPE_POLICY_SIG_SECONDARY_KEYRING unknown (a bzImage by path): $(write_status $IPE/new_policy "$W/sig-inter-secondary.p7s")" ;;
esac

echo "# 4: under the policy key's policy, package files still run"
mnt=/tmp/ipe-signer-btrfs
mkfs_mount btrfs "$SCRATCH_DEV" "$mnt"
cp "$W/hello" "$mnt/signed" && cp "$W/hello" "$mnt/unsigned" && chmod 755 "$mnt/signed" "$mnt/unsigned" ||
	bail "cannot copy the binary"
check "fsverity enable with the package key's signature" \
	fsverity enable --signature="$W/hello.sig" "$mnt/signed"
echo 0 >$IPE/enforce
check "activate sig-policy (permissive first: the shell's programs are unsigned)" \
	bash -c "echo 1 >$IPE/policies/sig-policy/active"
dmesg -C
"$probe" --enforce $IPE/enforce "exec:$mnt/signed" "exec:$mnt/unsigned" >$T/probe.out
rc=$?
echo 0 >$IPE/enforce
check_eq "ipe-probe ran and switched enforce off again" "$rc $(cat $IPE/enforce)" "0 0"
sed 's/^/  /' $T/probe.out
check_eq "the binary the package key signed runs (fsverity_signature=TRUE)" \
	"$(result "exec:$mnt/signed")" ok
check_eq "an unsigned copy: EACCES" "$(result "exec:$mnt/unsigned")" EACCES
check "  audit: BPRM_CHECK denial names it" ipe_denied BPRM_CHECK "$mnt/unsigned"
check "  no denial names the signed one" bash -c \
	"! dmesg | grep type=1420 | grep -qF 'path=\"$mnt/signed\"'"
umount "$mnt"
finish
