#!/bin/bash
# In the guest (vm/run), on btrfs: the fsverity
# plugin of the rpm under test (Debian's 4.18, or the upstream rpm a build
# against RPMVERITY_RPM_PREFIX runs), taken from that rpm's own plugin
# directory, installing a package we signed, with the test certificate
# already in the .fs-verity keyring so a signature problem cannot be the
# cause. Documents what upstream does: FS_IOC_ENABLE_VERITY on rpm's
# still-open write fd fails (ETXTBSY on 6.1, EBADF on 6.12) and the install fails
# (the errno is read with strace, as upstream logs it at debug level only).
# Then ours installs the same package, and one that Debian's rpmsign
# --signverity signed (make-packages.sh's vm-rpmsign-1.rpm).
. "$(dirname "$0")/lib.sh"
need_build
rpmver=$(rpm --version | sed 's/.* //')
# Debian's, where its macros do not say (%__plugindir there is /usr/lib64/...).
upstream=/usr/lib/x86_64-linux-gnu/rpm-plugins/fsverity.so
[ -z "${RPMVERITY_RPM_BINDIR:-}" ] || upstream=$(rpm --eval '%{__plugindir}')/fsverity.so
[ -r "$upstream" ] || skip "$upstream not installed (rpm $rpmver)"
echo "# rpm $rpmver's own plugin: $upstream"

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
${tracer[@]+"${tracer[@]}"} rpm --root "$mnt" --dbpath /var/lib/rpm --nodeps "${RPM_INSTALL_OPTS[@]}" \
	-vv --define "__plugindir $plugdir" -i "$PKGS/vm-demo-1.rpm" >/tmp/upstream.out 2>&1
rc=$?
echo "# rpm $rpmver's fsverity.so: rpm exit status $rc; its plugin lines:"
grep -E 'fsverity|verity|Plugin|unpacking|failed' /tmp/upstream.out | grep -v '^D:   *[a-z]*.*Requires' | head -20 | sed 's/^/  /'
check "upstream's plugin was loaded" grep -qE 'loading plugin|fsverity' /tmp/upstream.out
check_fails "upstream's plugin fails the install (documented behaviour)" test $rc = 0
check "its hook fsm_file_prepare failed" grep -q 'hook fsm_file_prepare failed' /tmp/upstream.out
if [ -s /tmp/upstream.strace ]; then
	echo "# the ioctls upstream's plugin made:"
	grep -E 'FS_IOC_ENABLE_VERITY|0x40806685' /tmp/upstream.strace | sed 's/^/  /'
	# 6.1 refuses the write fd as open for writing (ETXTBSY); 6.12 first
	# checks that it is open for reading (EBADF).
	check "the cause: FS_IOC_ENABLE_VERITY on rpm's write-only fd fails (ETXTBSY on 6.1, EBADF on 6.12)" \
		grep -qE '(FS_IOC_ENABLE_VERITY|0x40806685).*(ETXTBSY|EBADF)' /tmp/upstream.strace
else
	echo "# strace not installed: the errno is not recorded"
fi
check_fails "vm-demo is not in the rpmdb after upstream's failure" \
	rpm --root "$mnt" --dbpath /var/lib/rpm -q vm-demo
check_eq "no files left by upstream's failed install" "$(leftovers "$mnt")" ""

echo "# the same install with rpm-verity's plugin"
check "ours installs it under enforce" rpmv enforce -i "$PKGS/vm-demo-1.rpm"
check "every signed file has verity and the signed digest" installed_check vm-demo vm-demo-1.rpm

if [ -r "$PKGS/vm-rpmsign-1.rpm" ]; then
	echo "# a package Debian's rpmsign --signverity signed, with our plugin under rpm $rpmver"
	new_root "$mnt/rpmsign"
	check "ours installs rpmsign's package under enforce" \
		rpmv enforce -i "$PKGS/vm-rpmsign-1.rpm"
	check "every signed file has verity and rpmsign's digest" \
		installed_check vm-demo vm-rpmsign-1.rpm
else
	echo "# no vm-rpmsign-1.rpm (Debian's rpmsign missing on the host)"
fi
umount "$mnt"
finish
