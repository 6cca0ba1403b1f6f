#!/bin/bash
# IMA appraisal by fs-verity signature, in the guest (vm/run), on
# btrfs or ext4. Packages signed by rpm-verity with fs-verity and IMA sigv3
# signatures install through rpm with verity.so and rpm's own ima.so, which
# writes security.ima. Then, with a policy that appraises exec and executable
# mmap on the scratch filesystem type only (fsmagic; the 9p root is left
# alone), only signed code runs:
#   1  the package's binary, shared library and #! script run (RSA and ECDSA);
#   2  a binary copied in by hand is refused (EACCES), the kernel log names it;
#   3  refused too: verity by hand without an IMA signature, another file's
#      security.ima, a signature by a key .ima does not hold (its certificate
#      is refused by .ima: the kernel's test CA did not sign it);
#   4  a tampered block under a signed binary: exec fails with EIO;
#   5  a signed binary renamed, or copied with its xattr, still runs (sigv3
#      does not bind the path; the audit command must report such copies);
#   6  without the policy, nothing changes (all of 2 and 3 run);
#   7  the same on ext4 (run with "ext4").
# usage: ima-appraise.sh btrfs|ext4   (needs $RPMVERITY_IMA_PACKAGES from
# tests/vm/make-ima-packages.sh, and $RPMVERITY_BUILD for verity.so)
. "$(dirname "$0")/lib.sh"
fs=${1:?usage: ima-appraise.sh btrfs|ext4}
need_build
IPK=${RPMVERITY_IMA_PACKAGES:-}
[ -r "$IPK/vm-ima-1.rpm" ] || bail "RPMVERITY_IMA_PACKAGES=$IPK: no IMA test packages (tests/vm/make-ima-packages.sh)"
CERT=$IPK/verity/cert.pem
ima_so=/usr/lib/x86_64-linux-gnu/rpm-plugins/ima.so
[ -r "$ima_so" ] || skip "$ima_so not installed (Debian package rpm-common)"
case $fs in
btrfs) magic=0x9123683e ;;
ext4) magic=0xef53 ;;
*) bail "unknown filesystem $fs" ;;
esac
# Every refusal is an audit record; do not let printk's rate limit drop one.
echo 10000 >/proc/sys/kernel/printk_ratelimit_burst

# Both plugins, as a system enables them: rpm loads every *.so of its plugin
# directory that has a %__transaction_NAME (Debian defines the one for ima).
plugdir=/tmp/ima-plugins
mkdir -p "$plugdir"
ln -sf "$BUILD/plugin/verity.so" "$plugdir/verity.so"
ln -sf "$ima_so" "$plugdir/ima.so"
# These roots are never booted: no boot-time certificate loader warning.
RPMV_DEFINES=(--define "__plugindir $plugdir"
	--define "__transaction_ima %{__plugindir}/ima.so"
	--define "_fsverity_boot_loader_warning 0")

# run_status, dlopen_status: the probes the distribution's guests use.
. "$(dirname "$0")/../distro/probes.sh"
xattr_hex() { python3 -c 'import os, sys; print(os.getxattr(sys.argv[1], "security.ima").hex())' "$1" 2>/dev/null; }
# appraise_logged CAUSE NAME: the kernel logged IMA's refusal of file NAME for
# CAUSE (an integrity audit record, type 1800; name= is the base name when
# collecting the digest failed, the full path when the appraisal did).
# kauditd prints records a moment after the refusal.
appraise_logged() {
	local i
	for i in 1 2 3 4 5 6 7 8 9 10; do
		dmesg | grep 'type=1800' | grep "cause=$1" | matches -E "name=\"([^\"]*/)?$2\"" && return 0
		sleep 0.3
	done
	dmesg | grep 'type=1800' | grep -F "$2" | sed 's/^/  logged: /'
	return 1
}

mnt=/tmp/ima-$fs
mkfs_mount "$fs" "$SCRATCH_DEV" "$mnt"
# security.ima needs the filesystem's security xattr handler: always there on
# btrfs, but ext4 has it only with CONFIG_EXT4_FS_SECURITY. Without it rpm's
# ima.so gets EOPNOTSUPP, logs it at debug level only, and installs anyway.
touch "$mnt/.xattr-probe"
if ! setfattr -n security.rpm-verity-probe -v 1 "$mnt/.xattr-probe" 2>/dev/null; then
	skip "$fs in this kernel cannot store security.* xattrs (ext4 needs CONFIG_EXT4_FS_SECURITY=y)"
fi
rm -f "$mnt/.xattr-probe"
new_root "$mnt"
mountpoint -q /sys/kernel/security || mount -t securityfs securityfs /sys/kernel/security ||
	bail "cannot mount securityfs"
policy=/sys/kernel/security/ima/policy
[ -w "$policy" ] || bail "$policy: not writable (kernel without IMA_WRITE_POLICY?)"
check_eq "no IMA policy is loaded at boot" "$(grep -c appraise "$policy")" 0

echo "# keys: .ima takes only certificates signed by the kernel's trusted CA"
load=$VMT_DIR/../../keys/rpm-verity-load-ima-certs
check "the IMA certificates (RSA, ECDSA P-256; DER and PEM) go onto .ima" \
	"$load" "$IPK/ima/ima-cert.der" "$IPK/ima-ec/ima-cert.pem"
check_fails ".ima refuses the rogue certificate (its CA is not trusted)" \
	"$load" "$IPK/rogue/ima-cert.der"
check_eq "two keys on .ima" "$(keyctl rlist %keyring:.ima | wc -w)" 2

echo "# item 1 (install): both plugins write verity and security.ima"
for p in vm-ima vm-ima-ec vm-ima-rogue; do
	check "rpm -i $p with verity.so and ima.so (enforce)" rpmv enforce -i "$IPK/$p-1.rpm"
done
check "no warnings or errors from either plugin" bash -c "! grep -qiE 'warning|error' $RPM_OUT"
drop_caches
bin=$mnt/usr/bin
for f in vm-ima-true vm-ima-hello vm-ima-uselib vm-ima-ec-true; do
	check "$f has verity" has_verity "$bin/$f"
done
check "libvm-ima.so.1 has verity" has_verity "$mnt/usr/lib64/libvm-ima.so.1"
check "libvm-ima-ec.so.1 has verity" has_verity "$mnt/usr/lib64/libvm-ima-ec.so.1"
# What ima.so wrote is what the rpmdb holds (tag 5090, from the package's 274).
rpm --root "$mnt" --dbpath /var/lib/rpm -qa --qf '[%{FILENAMES} %{FILESIGNATURES}\n]' >/tmp/ima-db.txt
bad=0 n=0
while read -r path sig; do
	[ -n "$sig" ] || continue
	n=$((n + 1))
	got=$(xattr_hex "$mnt$path")
	[ "$got" = "$sig" ] || { echo "  $path: security.ima '${got:0:24}...' != rpmdb '${sig:0:24}...'"; bad=1; }
done </tmp/ima-db.txt
check_eq "every signed file carries the package's IMA signature as security.ima ($n files)" "$bad$n" 012
check_eq "and it is a sigv3 value (type 6, version 3, sha256)" "$(xattr_hex "$bin/vm-ima-true" | cut -c1-6)" 060304

echo "# hand-made files: no package brought them"
mkdir -p "$mnt/usr/local/bin" "$mnt/usr/local/lib64"
cp /usr/bin/true "$mnt/usr/local/bin/intruder"
cp /usr/bin/true "$mnt/usr/local/bin/verity-only"
fsverity enable "$mnt/usr/local/bin/verity-only" || bail "fsverity enable verity-only"
cp /usr/bin/false "$mnt/usr/local/bin/borrowed"
fsverity enable "$mnt/usr/local/bin/borrowed" || bail "fsverity enable borrowed"
setfattr -n security.ima -v "0x$(xattr_hex "$bin/vm-ima-true")" "$mnt/usr/local/bin/borrowed" ||
	bail "setfattr borrowed"
cp "$mnt/usr/lib64/libvm-ima.so.1" "$mnt/usr/local/lib64/libvm-ima.so.1"
printf '#!/bin/sh\necho intruding\n' >"$mnt/usr/local/bin/intruder.sh"
chmod 755 "$mnt/usr/local/bin/"*
hand="intruder verity-only borrowed intruder.sh"

echo "# item 6: without the policy nothing changes"
for f in $hand; do
	check_eq "no policy: $f runs" "$(run_status "$mnt/usr/local/bin/$f")" \
		"$([ $f = borrowed ] && echo exit1 || echo ok)"
done
check_eq "no policy: vm-ima-rogue-true runs" "$(run_status "$bin/vm-ima-rogue-true")" ok
check_eq "no policy: the unsigned copy of the library loads" \
	"$(dlopen_status "$mnt/usr/local/lib64/libvm-ima.so.1")" ok

echo "# the policy: exec and executable mmap on $fs (fsmagic $magic) need a verity signature"
printf '%s\n' \
	"appraise func=BPRM_CHECK fsmagic=$magic digest_type=verity appraise_type=sigv3" \
	"appraise func=MMAP_CHECK mask=MAY_EXEC fsmagic=$magic digest_type=verity appraise_type=sigv3" \
	>"$policy" || bail "the kernel refused the policy"
sed 's/^/  policy: /' "$policy"
drop_caches
dmesg -C

echo "# item 1: signed code runs"
check_eq "the signed binary runs" "$(run_status "$bin/vm-ima-true")" ok
check_eq "the signed #! script runs" "$("$bin/vm-ima-hello" 2>&1)" "hello from vm-ima"
check_eq "the signed binary loads its signed shared library (exec + mmap)" \
	"$("$bin/vm-ima-uselib" 2>&1)" "hello from libvm-ima"
check_eq "the signed library loads by dlopen" "$(dlopen_status "$mnt/usr/lib64/libvm-ima.so.1")" ok
check_eq "the ECDSA-signed binary runs" "$(run_status "$bin/vm-ima-ec-true")" ok
check_eq "the ECDSA-signed binary loads its library" "$("$bin/vm-ima-ec-uselib" 2>&1)" "hello from libvm-ima-ec"
check_eq "the 9p root is not appraised (/usr/bin/true runs)" "$(run_status /usr/bin/true)" ok
check "no appraisal failure logged for signed files" bash -c "! dmesg | grep -q 'name=\"vm-ima'"

echo "# item 2: a binary copied in by hand is refused"
check_eq "intruder: exec refused with EACCES" "$(run_status "$mnt/usr/local/bin/intruder")" EACCES
check "the kernel log names it (no-verity-digest)" appraise_logged no-verity-digest intruder
check_eq "intruder.sh: a hand-made #! script is refused too" \
	"$(run_status "$mnt/usr/local/bin/intruder.sh")" EACCES
out=$(LD_LIBRARY_PATH=$mnt/usr/local/lib64 "$bin/vm-ima-uselib" 2>&1)
check "the signed binary refuses an unsigned copy of its library (mmap exec)" \
	bash -c "[[ '$out' == *libvm-ima.so.1* && '$out' != *'hello from'* ]]"
echo "  $out"
check "dlopen of the unsigned library copy fails" \
	bash -c "[ '$(dlopen_status "$mnt/usr/local/lib64/libvm-ima.so.1")' != ok ]"
check "the kernel log names the library (no-verity-digest)" appraise_logged no-verity-digest libvm-ima.so.1

echo "# item 3: verity without IMA signature, a borrowed signature, an untrusted key"
check_eq "verity-only: refused with EACCES" "$(run_status "$mnt/usr/local/bin/verity-only")" EACCES
check "logged as verity-signature-required" appraise_logged verity-signature-required verity-only
check_eq "borrowed (vm-ima-true's security.ima on other content): EACCES" \
	"$(run_status "$mnt/usr/local/bin/borrowed")" EACCES
check "logged as invalid-verity-signature" appraise_logged invalid-verity-signature borrowed
check_eq "vm-ima-rogue-true (signed by a key not on .ima): EACCES" \
	"$(run_status "$bin/vm-ima-rogue-true")" EACCES
check "logged as invalid-verity-signature" appraise_logged invalid-verity-signature vm-ima-rogue-true
check_eq "its verity signature was fine: the file reads" "$(cmp -s "$bin/vm-ima-rogue-true" /usr/bin/true && echo same)" same

echo "# item 5: sigv3 does not bind the path"
mv "$bin/vm-ima-true" "$mnt/usr/local/bin/renamed"
check_eq "a signed binary renamed elsewhere still runs" "$(run_status "$mnt/usr/local/bin/renamed")" ok
cp "$bin/vm-ima-ec-true" "$mnt/usr/local/bin/copied"
fsverity enable "$mnt/usr/local/bin/copied" || bail "fsverity enable copied"
setfattr -n security.ima -v "0x$(xattr_hex "$bin/vm-ima-ec-true")" "$mnt/usr/local/bin/copied"
check_eq "a copy of it with verity and the same security.ima runs" "$(run_status "$mnt/usr/local/bin/copied")" ok
echo "# RECORDED: /usr/local/bin/renamed and /usr/local/bin/copied run although no package"
echo "#   owns those paths; IMA sigv3 signs content only. rpm-verity audit must report"
echo "#   signed files found at paths the rpmdb does not list."
umount "$mnt"

echo "# item 4: a tampered block under a signed binary"
# A fresh filesystem with the one package: the first hit of the build id on
# the raw device is the installed binary.
mnt=/tmp/ima-$fs-tamper
mkfs_mount "$fs" "$SCRATCH_DEV2" "$mnt"
new_root "$mnt"
check "install vm-ima on a fresh $fs" rpmv enforce -i "$IPK/vm-ima-1.rpm"
b=$mnt/usr/bin/vm-ima-true
check_eq "it runs before the tampering" "$(run_status "$b")" ok
build_id=$(readelf -n "$b" | sed -n 's/.*Build ID: //p')
[ -n "$build_id" ] || bail "$b: no build id"
sync
off=$(find-bytes --hex "$SCRATCH_DEV2" "$build_id") || bail "$b not found on $SCRATCH_DEV2"
umount "$mnt"
poke-byte "$SCRATCH_DEV2" "$off"
mount_opts=
[ "$fs" = btrfs ] && mount_opts=-onodatasum,max_inline=0
mount $mount_opts "$SCRATCH_DEV2" "$mnt" || bail "cannot mount $SCRATCH_DEV2 again"
dmesg -C
check_eq "exec of the tampered signed binary fails with EIO" "$(run_status "$b")" EIO
check "the kernel log names fs-verity" kernel_log_has 'fs-verity.*FILE CORRUPTED'
umount "$mnt"
finish
