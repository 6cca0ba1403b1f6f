#!/bin/bash
# IPE (Linux 6.12, security/ipe/) as the enforcement of fs-verity builtin
# signatures: a package signed by rpm-verity (fs-verity signatures
# only) installed by rpm with verity.so under enforce; then a policy made,
# signed with a certificate of the kernel's test CA and loaded by
# keys/rpm-verity-ipe-policy, under which only signed code runs:
#   1  the kernel refuses the policy unsigned, and signed by a key it does
#      not trust;
#   2  with the policy enforced, the package's static binary runs and its
#      library loads (dlopen, mmap PROT_EXEC);
#   3  refused (EACCES; dlopen fails), each named by an IPE audit record
#      (type 1420):
#      copies of that binary without verity on btrfs, on tmpfs (/tmp) and
#      in a memfd; a copy with verity but no signature; an unsigned copy of
#      the library (dlopen and mmap PROT_EXEC); anonymous executable memory
#      (mmap and mprotect);
#   4  what an unsigned loader or interpreter (the guest's, from 9p) does to
#      a signed dynamic binary and a signed #! script;
#   5  a signed file revoked by its fs-verity digest in a newer version of
#      the policy (loaded through the policy's update file) is refused.
# The guest's programs come from the host over 9p, unsigned, so the enforced
# checks run inside tests/tools' ipe-probe, which switches IPE's enforce on
# and off around them; the shell runs with the policy active but permissive.
# usage: ipe.sh btrfs|ext4   (host side: boots the guest unless the kernel that
# RPMVERITY_KERNEL names has no IPE, then skips; needs $RPMVERITY_BUILD and
# $RPMVERITY_PACKAGES as the other VM tests)
if [ "${1:-}" != --guest ]; then
	here=$(cd "$(dirname "$0")" && pwd)
	top=$(cd "$here/../.." && pwd)
	. "$here/../lib/testlib.sh"
	needs_qemu
	needs_ipe_kernel "$top"
	exec "$top/vm/run" "$0" --guest "$@"
fi
shift
. "$(dirname "$0")/lib.sh"
fs=${1:?usage: ipe.sh btrfs|ext4}
need_build
IPE=/sys/kernel/security/ipe
mountpoint -q /sys/kernel/security || mount -t securityfs securityfs /sys/kernel/security ||
	bail "cannot mount securityfs"
[ -d $IPE ] || skip "kernel $(uname -r) has no IPE ($IPE missing)"
[ -r "$PKGS/vm-ipe-1.rpm" ] || bail "$PKGS/vm-ipe-1.rpm: missing (tests/vm/make-packages.sh)"
tool=$VMT_DIR/../../keys/rpm-verity-ipe-policy
probe=$BUILD/tests/tools/ipe-probe
[ -x "$probe" ] || bail "$probe: not built"
# Every refusal is an audit record; do not let printk's rate limit drop one.
echo 10000 >/proc/sys/kernel/printk_ratelimit_burst
RPMV_DEFINES=(--define "_fsverity_boot_loader_warning 0")
T=/tmp/ipe-work
mkdir -p $T

mnt=/tmp/ipe-$fs
mkfs_mount "$fs" "$SCRATCH_DEV" "$mnt"
new_root "$mnt"

echo "# install: vm-ipe, signed with fs-verity signatures only, under enforce"
check "rpm -i vm-ipe under enforce" rpmv enforce -i "$PKGS/vm-ipe-1.rpm"
check "no verity warnings or errors" bash -c "! grep -qiE 'warning|error' $RPM_OUT"
bin=$mnt/usr/bin
lib=$mnt/usr/lib64/libvm-ipe.so.1
for f in $bin/vm-ipe-static $bin/vm-ipe-true $bin/vm-ipe-hello $lib; do
	check "${f#$mnt} has verity" has_verity "$f"
done
check ".fs-verity holds the package certificate (the plugin loaded it)" \
	bash -c "keyctl show %keyring:.fs-verity | grep -q 'rpm-verity VM test trusted'"

echo "# hand-made files: no package brought them"
mkdir -p "$mnt/usr/local/bin" "$mnt/usr/local/lib64"
cp "$bin/vm-ipe-static" "$mnt/usr/local/bin/copy"
cp "$bin/vm-ipe-static" /tmp/ipe-copy
cp "$bin/vm-ipe-static" "$mnt/usr/local/bin/verity-only"
fsverity enable "$mnt/usr/local/bin/verity-only" || bail "fsverity enable verity-only"
cp "$lib" "$mnt/usr/local/lib64/libvm-ipe.so.1"
chmod 755 "$mnt/usr/local/bin/"* /tmp/ipe-copy
check "verity-only has verity" has_verity "$mnt/usr/local/bin/verity-only"
probes=(
	"exec:$bin/vm-ipe-static" "dlopen:$lib" "mmap:$lib"
	"exec:$mnt/usr/local/bin/copy" "exec:/tmp/ipe-copy" "memfd:$bin/vm-ipe-static"
	"exec:$mnt/usr/local/bin/verity-only"
	"dlopen:$mnt/usr/local/lib64/libvm-ipe.so.1" "mmap:$mnt/usr/local/lib64/libvm-ipe.so.1"
	anon-mmap anon-mprotect
	"exec:$bin/vm-ipe-true" "exec:$bin/vm-ipe-hello"
)
echo "# without a policy every probe runs"
"$probe" "${probes[@]}" >$T/probe.out || bail "ipe-probe failed"
sed 's/^/  /' $T/probe.out
check_eq "no policy: all ${#probes[@]} probes run" "$(cut -f2 $T/probe.out | sort | uniq -c | xargs)" "${#probes[@]} ok"

echo "# item 1: the kernel takes only a policy signed by a key it trusts"
check "make the policy" bash -c "'$tool' make --name rpm-verity-test --version 0.0.1 >$T/policy.txt"
sed 's/^/  policy: /' $T/policy.txt
check "sign it with the package certificate (signed by the kernel's test CA)" \
	"$tool" sign --key "$PKGS/trusted/signing-key.pem" --cert "$PKGS/trusted/cert.pem" \
	$T/policy.txt $T/policy.p7s
"$tool" sign --key "$PKGS/rogue/signing-key.pem" --cert "$PKGS/rogue/cert.pem" \
	$T/policy.txt $T/rogue.p7s || bail "cannot sign with the rogue key"
dmesg -C
st=$(write_status $IPE/new_policy $T/policy.txt)
check "the unsigned policy text is refused ($st)" test "$st" != ok
dmesg | grep -i ipe | sed 's/^/  kernel: /' | tail -3
st=$(write_status $IPE/new_policy $T/rogue.p7s)
check "the policy signed by an untrusted (self-signed) key is refused ($st)" test "$st" != ok
check "neither was loaded" test ! -e $IPE/policies/rpm-verity-test
err=$("$tool" load $T/rogue.p7s 2>&1)
check_eq "rpm-verity-ipe-policy load fails on it" "$?" 1
echo "  $err"

echo "# load and activate (the shell's own programs are unsigned: permissive first)"
echo 0 >$IPE/enforce
check "rpm-verity-ipe-policy load activates the signed policy" "$tool" load $T/policy.p7s
check_eq "policies/rpm-verity-test/active" "$(cat $IPE/policies/rpm-verity-test/active 2>&1)" 1
dmesg -C
"$probe" "exec:$mnt/usr/local/bin/copy" >$T/probe.out
check_eq "permissive: the unsigned copy runs" "$(result "exec:$mnt/usr/local/bin/copy")" ok
check "permissive: IPE logs what it would have refused (enforcing=0)" bash -c \
	"sleep 1; dmesg | grep type=1420 | grep 'enforcing=0' | grep -qF 'path=\"$mnt/usr/local/bin/copy\"'"

echo "# items 2-4: enforced, inside ipe-probe"
dmesg -C
"$probe" --enforce $IPE/enforce "${probes[@]}" >$T/probe.out
rc=$?
echo 0 >$IPE/enforce	# in case ipe-probe died between its two writes
check_eq "ipe-probe ran every probe and switched enforce off again" "$rc $(cat $IPE/enforce)" "0 0"
sed 's/^/  /' $T/probe.out
check_eq "the signed static binary runs" "$(result "exec:$bin/vm-ipe-static")" ok
check_eq "the signed library loads by dlopen" "$(result "dlopen:$lib")" ok
check_eq "the signed library maps PROT_EXEC" "$(result "mmap:$lib")" ok
check "no IPE denial names a signed file" bash -c \
	"! dmesg | grep type=1420 | grep -qE 'path=\"($bin/vm-ipe-static|$lib)\"'"
check_eq "a copy on $fs without verity: EACCES" "$(result "exec:$mnt/usr/local/bin/copy")" EACCES
check "  audit: BPRM_CHECK denial names it" ipe_denied BPRM_CHECK "$mnt/usr/local/bin/copy"
check_eq "a copy on tmpfs (/tmp): EACCES" "$(result exec:/tmp/ipe-copy)" EACCES
check "  audit: BPRM_CHECK denial names it" ipe_denied BPRM_CHECK /tmp/ipe-copy
check_eq "the signed bytes from a memfd: EACCES" "$(result "memfd:$bin/vm-ipe-static")" EACCES
check "  audit: BPRM_CHECK denial names the memfd" ipe_denied BPRM_CHECK "/memfd:ipe-probe (deleted)"
check_eq "a copy with verity but no signature: EACCES" "$(result "exec:$mnt/usr/local/bin/verity-only")" EACCES
check "  audit: BPRM_CHECK denial names it" ipe_denied BPRM_CHECK "$mnt/usr/local/bin/verity-only"
ulib=$mnt/usr/local/lib64/libvm-ipe.so.1
# glibc's words for a refused mmap of a segment (its message has no errno).
check_eq "dlopen of an unsigned copy of the library fails" \
	"$(result "dlopen:$ulib")" "dlerror: $ulib: failed to map segment from shared object"
check_eq "mmap PROT_EXEC of the unsigned copy: EACCES" "$(result "mmap:$ulib")" EACCES
check "  audit: MMAP denial names it" ipe_denied MMAP "$ulib"
check_eq "  audit: two MMAP denials name it (dlopen's, mmap's)" \
	"$(dmesg | grep type=1420 | grep 'ipe_hook=MMAP enforcing=1' | grep -cF "path=\"$ulib\"")" 2
check_eq "anonymous mmap PROT_EXEC: EACCES" "$(result anon-mmap)" EACCES
check_eq "anonymous mprotect PROT_EXEC: EACCES" "$(result anon-mprotect)" EACCES
check "  audit: MMAP and MPROTECT denials without a file (path=?)" bash -c \
	"dmesg | grep type=1420 | grep -q 'ipe_hook=MMAP enforcing=1 .* path=? ' &&
	 dmesg | grep type=1420 | grep -q 'ipe_hook=MPROTECT enforcing=1 .* path=? '"
dmesg | grep type=1420 | grep 'path=?' | sed 's/^/  logged: /' | head -2
# A signed dynamic binary passes BPRM_CHECK, but its loader (ld.so over 9p)
# is mapped after exec's point of no return: the kernel kills it.
check_eq "a signed dynamic binary with an unsigned ld.so: killed by SIGSEGV" \
	"$(result "exec:$bin/vm-ipe-true")" signal11
check "  audit: MMAP denial names the loader" bash -c \
	"dmesg | grep type=1420 | grep 'ipe_hook=MMAP enforcing=1' | grep -q 'ld-linux'"
check_eq "a signed #! script with an unsigned /bin/sh: EACCES" "$(result "exec:$bin/vm-ipe-hello")" EACCES
sh=$(readlink -f /bin/sh)
check "  audit: BPRM_CHECK denial names the interpreter ($sh)" ipe_denied BPRM_CHECK "$sh"

echo "# item 5: revoking one signed file by its fs-verity digest"
d=$(digest_of "$bin/vm-ipe-static")
check_eq "the kernel measures the digest userspace computes" "$(measured "$bin/vm-ipe-static")" "$d"
check "make version 0.0.2 with --revoke $d" bash -c \
	"'$tool' make --name rpm-verity-test --version 0.0.2 --revoke $d >$T/policy2.txt"
check "sign it" "$tool" sign --key "$PKGS/trusted/signing-key.pem" --cert "$PKGS/trusted/cert.pem" \
	$T/policy2.txt $T/policy2.p7s
check "load it (through policies/rpm-verity-test/update)" "$tool" load $T/policy2.p7s
check_eq "version 0.0.2 is active" \
	"$(cat $IPE/policies/rpm-verity-test/version) $(cat $IPE/policies/rpm-verity-test/active)" "0.0.2 1"
dmesg -C
"$probe" --enforce $IPE/enforce "exec:$bin/vm-ipe-static" "dlopen:$lib" >$T/probe.out
rc=$?
echo 0 >$IPE/enforce
check_eq "ipe-probe ran" "$rc" 0
sed 's/^/  /' $T/probe.out
check_eq "the revoked binary: EACCES" "$(result "exec:$bin/vm-ipe-static")" EACCES
# audit writes the digest's hex in capitals, after the quoted algorithm.
hex=$(echo "${d#sha256:}" | tr a-f A-F)
check "  audit: the rule that denied it is the digest's" bash -c \
	"sleep 1; dmesg | grep type=1420 | grep 'ipe_hook=BPRM_CHECK enforcing=1' | grep -q 'fsverity_digest=\"sha256\":$hex action=DENY'"
check_eq "the library, not revoked, still loads" "$(result "dlopen:$lib")" ok
umount "$mnt"
finish
