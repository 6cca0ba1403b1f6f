#!/bin/bash
# The IPE policy at boot. The signed root of boot-signed-root.sh
# (its /init and the static busybox it runs are fs-verity signed, installed
# by the plugin in a first boot) boots on the 6.12 guest through dracut
# images whose module (boot/dracut/90rpm-verity) carries a signed IPE policy
# (keys/rpm-verity-ipe-policy make; everything but execution allowed):
#   boot 2  the policy signed by a certificate of the kernel's test CA: the
#           module's pre-pivot hook activates it and the root's init runs
#           under it; in the booted root it is the active policy, IPE
#           enforces, the signed busybox runs, and unsigned copies of it (on
#           tmpfs and on the root's btrfs) are refused with EACCES and an IPE
#           audit record, then run once IPE is switched to permissive (so it
#           was IPE that refused them);
#   boot 3  the same policy signed by a key the kernel does not trust: the
#           hook stops the boot before the root's init (vm/run: 125) and the
#           console says why.
# Host side; needs root, QEMU, dracut, rpmbuild, openssl; boots the guest
# that RPMVERITY_KERNEL names (ctest: RPMVERITY_IPE_KERNEL, 7.3) three times and skips if its
# config has no IPE (a bzImage named by path: fails in boot 2 without IPE).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/../lib/testlib.sh"
. "$here/bootroot-lib.sh"
tool=$top/keys/rpm-verity-ipe-policy
case ${RPMVERITY_KERNEL:-} in
*/*)	# a bzImage by path: its version from its header; boot 2 finds out about IPE
	kver=$(file -b "$RPMVERITY_KERNEL" | sed -n 's/.*, version \([^ ]*\) .*/\1/p')
	[ -n "$kver" ] || bail "$RPMVERITY_KERNEL: no kernel version in it" ;;
*)	kdir=$("$top/vm/cache-dir")/kernel/${RPMVERITY_KERNEL:-default}
	grep -q '^CONFIG_SECURITY_IPE=y' "$kdir/build/.config" 2>/dev/null ||
		skip "kernel '${RPMVERITY_KERNEL:-default}' has no IPE (or is not built); run with RPMVERITY_KERNEL=7.3 (or 6.12)"
	kver=$(cat "$kdir/build/include/config/kernel.release") || bail "no kernel.release in $kdir/build" ;;
esac
name=rpm-verity-boot
bootroot_setup ipe-boot

echo "# the signed root package, the policy signed by a trusted and by an untrusted key"
bootroot_package
"$tool" make --name $name --version 0.0.1 >"$work/policy.txt" || bail "rpm-verity-ipe-policy make"
"$tool" sign --key "$pkgs/trusted/signing-key.pem" --cert "$cert" \
	"$work/policy.txt" "$work/trusted.p7s" || bail "cannot sign the policy with the test CA's certificate"
"$tool" sign --key "$pkgs/rogue/signing-key.pem" --cert "$pkgs/rogue/cert.pem" \
	"$work/policy.txt" "$work/rogue.p7s" || bail "cannot sign the policy with the rogue key"

echo "# initramfs images (dracut $(dracut --version 2>/dev/null | head -1)), for kernel $kver without modules"
dracut_base
for signer in trusted rogue; do
	RPMVERITY_IPE_TOOL=$tool RPMVERITY_IPE_POLICY=$work/$signer.p7s \
		mkinitrd "$kver" "$work/initrd-$signer.img" base rootfs-block rpm-verity
done
lsinitrd "$work/initrd-trusted.img" >"$work/lsinitrd.txt" 2>&1
for f in etc/rpm-verity/ipe-policy.p7s usr/sbin/rpm-verity-ipe-policy \
	lib/dracut/hooks/pre-pivot/95-rpm-verity-ipe.sh; do
	grep -qE " (usr/)?$f\$" "$work/lsinitrd.txt" && ok "the image holds /$f" || fail "the image has no /$f"
done
cmp -s "$work/trusted.p7s" <(lsinitrd -f etc/rpm-verity/ipe-policy.p7s "$work/initrd-trusted.img") &&
	ok "the image's policy is the signed policy, byte for byte" ||
	fail "the image's /etc/rpm-verity/ipe-policy.p7s differs from $work/trusted.p7s"

echo "# boot 1: install the signed root with the plugin"
install_root

# What the booted root checks, run by its signed shell from the read-only
# share (a script on 9p has no signature: IPE would refuse to exec it).
# It prints what it finds; the checks are made here.
mkdir "$work/share"
cat >"$work/share/check.sh" <<CHECK
# Runs under the signed /init (vm/disk-init), on the signed busybox.
ipe=/sys/kernel/security/ipe
[ -d \$ipe ] || mount -t securityfs securityfs /sys/kernel/security
echo 10000 >/proc/sys/kernel/printk_ratelimit_burst	# keep every audit record
echo "SIGNED-ROOT-BOOTED"
echo "IPE-STATE: active=\$(cat \$ipe/policies/$name/active) version=\$(cat \$ipe/policies/$name/version) enforce=\$(cat \$ipe/enforce)"
echo "SIGNED-RUNS: \$(/bin/busybox echo yes)"
# (named busybox: under another name busybox looks for an applet of that name)
mkdir /tmp/copy /root/copy && cp /bin/busybox /tmp/copy/ && cp /bin/busybox /root/copy/ || exit 1
for f in /tmp/copy/busybox /root/copy/busybox; do
	out=\$(\$f echo ran 2>&1)
	echo "UNSIGNED \$f: status \$? \$out"
done
sleep 1
dmesg | grep 'type=1420' | sed 's/^/AUDIT: /'
echo 0 >\$ipe/enforce
for f in /tmp/copy/busybox /root/copy/busybox; do
	out=\$(\$f echo ran 2>&1)
	echo "PERMISSIVE \$f: status \$? \$out"
done
CHECK

echo "# boot 2: the policy signed by a certificate of the kernel's test CA"
disk_boot trusted "$work/initrd-trusted.img" /bin/sh /run/rvshare/check.sh
grep -E '^(SIGNED|IPE|UNSIGNED|AUDIT|PERMISSIVE)|rpm-verity' "$work/trusted.out" | sed 's/^/  /'
if [ $rc = 0 ] && said trusted '^SIGNED-ROOT-BOOTED'; then
	ok "the signed root's init ran through the initramfs with the policy"
else
	cat "$work/trusted.out"; fail "boot with the trusted policy (status $rc)"
fi
said trusted "rpm-verity-ipe-policy: $name 0\.0\.1 is the active IPE policy" &&
	ok "the initramfs hook activated the policy" ||
	fail "no report from rpm-verity-ipe-policy on the console"
said trusted 'rpm-verity-load-certs: .* certificate' &&
	ok "the certificates were loaded before it (pre-mount)" ||
	fail "no report from rpm-verity-load-certs on the console"
said trusted "^IPE-STATE: active=1 version=0\.0\.1 enforce=1\$" &&
	ok "in the booted root: $name is the active policy, enforced" ||
	fail "in the booted root: $(grep -m1 '^IPE-STATE' "$work/trusted.out")"
said trusted '^SIGNED-RUNS: yes$' && ok "the signed busybox runs" || fail "the signed busybox did not run"
for f in /tmp/copy/busybox /root/copy/busybox; do
	# busybox's sh: status 126 and strerror(EACCES) when execve fails so.
	said trusted "^UNSIGNED $f: status 126 .*Permission denied" &&
		ok "an unsigned copy ($f) is refused: EACCES" ||
		fail "$f: $(grep -m1 "^UNSIGNED $f" "$work/trusted.out")"
	said trusted "^AUDIT: .*ipe_op=EXECUTE ipe_hook=BPRM_CHECK enforcing=1 .*path=\"$f\".* action=DENY" &&
		ok "  IPE's audit record names it" || fail "  no IPE denial of $f in the kernel log"
	said trusted "^PERMISSIVE $f: status 0 ran\$" &&
		ok "  it runs once IPE is permissive" ||
		fail "  permissive: $(grep -m1 "^PERMISSIVE $f" "$work/trusted.out")"
done

echo "# boot 3: the same policy signed by a key the kernel does not trust"
disk_boot rogue "$work/initrd-rogue.img" /bin/sh /run/rvshare/check.sh
grep -E 'rpm-verity|FATAL|Kernel panic' "$work/rogue.out" | sed 's/^/  /'
if [ $rc = 125 ] && ! said rogue SIGNED-ROOT-BOOTED; then
	ok "the boot stopped before the root's init (vm/run status 125)"
else
	cat "$work/rogue.out"; fail "boot with the untrusted policy: status $rc, want 125 and no init run"
fi
said rogue 'dracut: FATAL: rpm-verity: the kernel did not take the IPE policy' &&
	ok "the console says why: $(grep -m1 -o 'rpm-verity: the kernel did not take.*' "$work/rogue.out")" ||
	fail "the console does not show the hook's message"
said rogue 'rpm-verity-ipe-policy: .*the kernel refused' &&
	ok "and the tool's: $(grep -m1 -o 'rpm-verity-ipe-policy: .*' "$work/rogue.out")" ||
	fail "the console does not show the tool's refusal"
finish ipe-boot
