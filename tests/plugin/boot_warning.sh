#!/bin/bash
# The reboot warning: Linux checks each fs-verity signature again
# at the first open after every boot, against a keyring that starts empty, so
# at the end of a transaction that protected files the plugin warns once when
# the root has no boot-time certificate loader. No warning when the systemd
# unit, the dracut module or the initramfs-tools hook is there, when
# %_fsverity_boot_loader_warning is 0, or when nothing was protected.
# ioctl_shim.so stands in for a verity kernel.
. "$(dirname "$0")/lib.sh"
USE_SHIM=1
export VERITY_SHIM_LOG="$T/shim.log"
WARNING="^warning: verity: no boot-time certificate loader .*protected files will be unreadable after reboot until the certificate is loaded"

new_root none
run_rpm -i "$PKGS/signed-1.rpm"
expect_rc 0 "install without a loader"
expect_out "$WARNING" "no loader"
n=$(count_out "unreadable after reboot")
[ "$n" = 1 ] || { show; fail "no loader: $n reboot warnings, want one per transaction"; }
grep -q "$ROOT" "$T/out" || { show; fail "the warning does not name the root"; }

for f in /usr/lib/systemd/system/rpm-verity-load-certs.service \
	 /usr/lib/dracut/modules.d/90rpm-verity/module-setup.sh \
	 /usr/share/initramfs-tools/hooks/rpm-verity \
	 /etc/initramfs-tools/hooks/rpm-verity; do
	new_root "loader$(echo "$f" | tr / _)"
	with_boot_loader "$f"
	run_rpm -i "$PKGS/signed-1.rpm"
	expect_rc 0 "install with $f"
	expect_no_out "unreadable after reboot" "loader $f"
done

new_root silenced
run_rpm -i --define "_fsverity_boot_loader_warning 0" "$PKGS/signed-1.rpm"
expect_rc 0 "install, warning off"
expect_no_out "unreadable after reboot" "%_fsverity_boot_loader_warning 0"

# Nothing protected (a package without signatures, under warn): nothing to lose.
new_root unsigned
run_rpm -i "$PKGS/vt-demo-1.rpm"
expect_rc 0 "install of an unsigned package"
expect_no_out "unreadable after reboot" "nothing protected"
finish "reboot warning given once without a loader, not with one"
