#!/bin/bash
# Issue 4 item 7, in the guest (vm/run), on btrfs: Debian's own fsverity.so
# (rpm upstream's plugin), put where rpm loads it, installing the same signed
# package, with the test certificate already in the .fs-verity keyring so a
# signature problem cannot be the cause. Documents what upstream does
# (expected: FS_IOC_ENABLE_VERITY on rpm's still-open write fd fails with
# ETXTBSY, errno 26, and the install fails), then shows ours installing it.
. "$(dirname "$0")/lib.sh"
need_build
upstream=/usr/lib/x86_64-linux-gnu/rpm-plugins/fsverity.so
[ -r "$upstream" ] || skip "$upstream not installed (Debian package rpm)"

mnt=/tmp/e2e-upstream
mkfs_mount btrfs "$SCRATCH_DEV" "$mnt"
new_root "$mnt"
keyctl padd asymmetric '' %keyring:.fs-verity <"$PKGS/trusted/cert.der" >/dev/null ||
	bail "cannot add the test certificate to .fs-verity"

plugdir=/tmp/upstream-plugins
mkdir -p "$plugdir"
ln -sf "$upstream" "$plugdir/fsverity.so"
# strace shows the ioctl's errno, which upstream's plugin does not log.
tracer=()
command -v strace >/dev/null && tracer=(strace -f -e trace=ioctl -o /tmp/upstream.strace)
${tracer[@]+"${tracer[@]}"} rpm --root "$mnt" --dbpath /var/lib/rpm --nodeps --force-debian -vv \
	--define "__plugindir $plugdir" -i "$PKGS/vm-demo-1.rpm" >/tmp/upstream.out 2>&1
rc=$?
echo "# upstream fsverity.so: rpm exit status $rc; its plugin lines:"
grep -E 'fsverity|verity|Plugin|unpacking|failed' /tmp/upstream.out | grep -v '^D:   *[a-z]*.*Requires' | head -20 | sed 's/^/  /'
check "upstream's plugin was loaded" grep -qE 'loading plugin|fsverity' /tmp/upstream.out
check_fails "upstream's plugin fails the install (documented behaviour)" test $rc = 0
check "its hook fsm_file_prepare failed" grep -q 'hook fsm_file_prepare failed' /tmp/upstream.out
if [ -s /tmp/upstream.strace ]; then
	echo "# the ioctls upstream's plugin made:"
	grep -E 'FS_IOC_ENABLE_VERITY|0x40806685' /tmp/upstream.strace | sed 's/^/  /'
	check "the cause: FS_IOC_ENABLE_VERITY on rpm's open write fd fails with ETXTBSY" \
		grep -qE '(FS_IOC_ENABLE_VERITY|0x40806685).*ETXTBSY' /tmp/upstream.strace
else
	echo "# strace not installed: the errno is not recorded"
fi
check_fails "vm-demo is not in the rpmdb after upstream's failure" \
	rpm --root "$mnt" --dbpath /var/lib/rpm -q vm-demo
check_eq "no files left by upstream's failed install" "$(leftovers "$mnt")" ""

echo "# the same install with rpm-verity's plugin"
check "ours installs it under enforce" rpmv enforce -i "$PKGS/vm-demo-1.rpm"
check "every signed file has verity and the signed digest" installed_check vm-demo vm-demo-1.rpm
umount "$mnt"
finish
