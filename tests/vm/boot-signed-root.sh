#!/bin/bash
# A root filesystem whose /init and shell (static busybox)
# are fs-verity signed, installed by the plugin in a first boot, boots
# through an initramfs made by dracut with the project's module
# (boot/dracut/90rpm-verity), which loads the certificate before the root is
# mounted. The same root with a dracut initramfs without the module, and with
# no initramfs at all, must not boot: the kernel refuses the signed /init
# (ENOKEY, error -126) and panics, and vm/run reports 125. Then (unless
# RPMVERITY_TRY_MKINITRAMFS=0, or without mkinitramfs) it boots an initramfs
# made by initramfs-tools' mkinitramfs with the project's hook: mkinitramfs
# reads /boot/config-VERSION, given in a private mount namespace.
# Host side; needs root, QEMU, dracut, rpmbuild; boots the guest 5 times.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/../lib/testlib.sh"
. "$here/bootroot-lib.sh"
bootroot_setup boot-signed-root
kver=6.1.192

echo "# the signed root package"
bootroot_package

echo "# initramfs images (dracut $(dracut --version 2>/dev/null | head -1)), for kernel $kver without modules"
dracut_base
mkinitrd $kver "$work/initrd-certs.img" base rootfs-block rpm-verity
mkinitrd $kver "$work/initrd-plain.img" base rootfs-block
lsinitrd "$work/initrd-certs.img" 2>/dev/null | grep -q 'usr/sbin/rpm-verity-load-certs' ||
	fail "the module's initramfs holds no rpm-verity-load-certs"
! lsinitrd "$work/initrd-certs.img" 2>/dev/null | grep -qE 'rpm-verity-ipe|ipe-policy' ||
	fail "the module's initramfs, built without an IPE policy, holds the IPE hook or tool"

echo "# boot 1: install the signed root with the plugin"
install_root

# A check the booted root runs from the read-only share.
mkdir "$work/share"
cat >"$work/share/check.sh" <<'CHECK'
#!/bin/sh
# Runs as a child of the signed /init (vm/disk-init) on the signed busybox.
echo "SIGNED-ROOT-BOOTED: /init is $(cat /proc/1/cmdline | tr '\0' ' ')"
cat /usr/share/rv-bootroot/data || exit 1
grep -q '^rv-bootroot data' /usr/share/rv-bootroot/data
CHECK
chmod 755 "$work/share/check.sh"

echo "# boot 2: the signed root through the initramfs with the project's dracut module"
disk_boot certs "$work/initrd-certs.img" /run/rvshare/check.sh
if [ $rc = 0 ] && said certs SIGNED-ROOT-BOOTED && said certs '^rv-bootroot data'; then
	ok "signed /init ran through the dracut module's initramfs; the signed data file read"
else
	cat "$work/certs.out"; fail "boot with the dracut module (status $rc)"
fi
line=$(grep -m1 'rpm-verity-load-certs: .* certificate' "$work/certs.out")
if [ -n "$line" ]; then
	ok "the loader ran in the initramfs: ${line#*rpm-verity-load-certs: }"
else
	fail "no report from rpm-verity-load-certs on the console"
fi

echo "# boot 3: the same root, a dracut initramfs without the module"
disk_boot plain "$work/initrd-plain.img" /run/rvshare/check.sh
if [ $rc = 125 ] && ! said plain SIGNED-ROOT-BOOTED; then
	ok "refused loudly (vm/run status 125): $(grep -m1 -E 'Kernel panic|Required key|error -126|keyring is empty' "$work/plain.out")"
else
	cat "$work/plain.out"; fail "boot without the certificate: status $rc, want 125 and no init run"
fi
said plain 'fs-verity keyring is empty|Required key not available|error -126' ||
	fail "boot 3: the console does not say the key was missing"

echo "# boot 4: the same root, no initramfs"
disk_boot noinitrd "" /run/rvshare/check.sh
if [ $rc = 125 ] && ! said noinitrd SIGNED-ROOT-BOOTED &&
	said noinitrd 'Requested init /init failed \(error -126\)'; then
	ok "kernel refuses the signed /init: $(grep -m1 'Kernel panic' "$work/noinitrd.out")"
else
	cat "$work/noinitrd.out"; fail "boot without initramfs: status $rc, want 125 with error -126"
fi

if [ "${RPMVERITY_TRY_MKINITRAMFS:-1}" = 1 ] && command -v mkinitramfs >/dev/null &&
	command -v unshare >/dev/null; then
	echo "# boot 5: an initramfs from initramfs-tools' mkinitramfs with the project's hook"
	conf=$work/itools
	mkdir -p "$conf/hooks" "$conf/scripts/init-premount" "$conf/boot"
	cp /etc/initramfs-tools/initramfs.conf "$conf/"
	# (mkinitramfs runs only executable hooks and scripts)
	install -m 755 "$build/boot/initramfs-tools/hooks/rpm-verity" "$conf/hooks/"
	install -m 755 "$top/boot/initramfs-tools/scripts/init-premount/rpm-verity" \
		"$conf/scripts/init-premount/"
	# mkinitramfs reads /boot/config-VERSION only to pick a compressor.
	cp "$("$top/vm/cache-dir")/kernel/default/build/.config" "$conf/boot/config-$kver" ||
		bail "no guest kernel config"
	if unshare --mount sh -c "mount --bind '$conf/boot' /boot &&
		RPMVERITY_LOADER='$loader' RPMVERITY_LOADER_ARGS='--no-config $cert' \
		mkinitramfs -d '$conf' -o '$work/initrd-itools.img' $kver" >"$work/mkinitramfs.log" 2>&1; then
		disk_boot itools "$work/initrd-itools.img" /run/rvshare/check.sh
		if [ $rc = 0 ] && said itools SIGNED-ROOT-BOOTED &&
			said itools 'rpm-verity-load-certs: 1 certificate from 1 file: 1 added'; then
			ok "signed /init ran through mkinitramfs' initramfs with the project's hook: $(grep -m1 'rpm-verity-load-certs: ' "$work/itools.out")"
		else
			tail -30 "$work/itools.out"; fail "boot with the initramfs-tools hook (status $rc)"
		fi
	else
		cat "$work/mkinitramfs.log"; fail "mkinitramfs for $kver"
	fi
fi
finish boot-signed-root
