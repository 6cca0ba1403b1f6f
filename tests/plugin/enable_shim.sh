#!/bin/bash
# How the plugin asks for fs-verity, checked with ioctl_shim.so standing in
# for a verity kernel: a read-only descriptor with no writer left (rpm 4.18
# still holds its write fd at that point), the package's algorithm, 4096-byte
# blocks, no salt, the exact DER signature; one call per inode (hardlinks),
# none for %config (unless asked), --excludedocs, --test or --justdb files;
# and what enforce and warn do with the kernel's refusals. Whether a real
# kernel accepts the signature is tested in the VM. And the summary line
# %_fsverity_summary asks for.
. "$(dirname "$0")/lib.sh"
USE_SHIM=1
export VERITY_SHIM_LOG="$T/shim.log"
D=/usr/share/vt-demo

calls() { grep -c '^enable' "$VERITY_SHIM_LOG" 2>/dev/null || true; }
ino() { stat -c %i "$ROOT$1"; }
called_for() { grep -q "^enable ino=$(ino "$1") " "$VERITY_SHIM_LOG"; }

: >"$VERITY_SHIM_LOG"
new_root ok
with_boot_loader
run_rpm -i --define "_fsverity_policy enforce" "$PKGS/signed-1.rpm"
expect_rc 0 "install"
[ "$(calls)" = 5 ] || { cat "$VERITY_SHIM_LOG"; fail "$(calls) enable calls, want 5 (one, two, empty, README, the link pair)"; }
if grep -v ' mode=ro writers=0 algo=1 block=4096 salt=0 sig_size=[0-9]* sig0=30 result=ok$' \
	"$VERITY_SHIM_LOG" | grep -q .; then
	cat "$VERITY_SHIM_LOG"; fail "an enable call had the wrong descriptor or parameters"
fi
for f in $D/one $D/two $D/empty $D/link-a /usr/share/doc/vt-demo/README; do
	called_for "$f" || fail "no enable call for $f"
done
! called_for /etc/vt-demo.conf || fail "%config file protected without %_fsverity_sign_config_files"
# The signature passed is exactly the DER entry of that file.
line=$(rpm -qp --qf '[%{FILENAMES}\n]' "$PKGS/signed-1.rpm" | grep -n "^$D/one\$" | cut -d: -f1)
want=$(sed -n "${line}p" "$PKGS/sigs-1.txt" | base64 -d | wc -c)
grep -q "^enable ino=$(ino $D/one) .* sig_size=$want " "$VERITY_SHIM_LOG" ||
	{ cat "$VERITY_SHIM_LOG"; fail "signature of $D/one not passed as its $want DER bytes"; }
expect_no_out "verity: " "clean install"

# %_fsverity_summary: one line with the files protected and the time taken.
new_root summary
run_rpm -i --define "_fsverity_summary 1" "$PKGS/signed-1.rpm"
expect_rc 0 "install with the summary"
expect_out "^verity: 5 files protected; [0-9.]+ s in the plugin, [0-9.]+ s of it in FS_IOC_ENABLE_VERITY$" \
	"%_fsverity_summary 1"

# Upgrade replaces verity files with new verity files.
: >"$VERITY_SHIM_LOG"
run_rpm -U --define "_fsverity_policy enforce" "$PKGS/signed-2.rpm"
expect_rc 0 "upgrade"
called_for $D/two || fail "upgrade: no enable call for the new $D/two"

# With %_minimize_writes rpm only touches unchanged files (no descriptor
# reaches the plugin); they are protected too.
new_root touch
run_rpm -i "$PKGS/signed-1.rpm"
: >"$VERITY_SHIM_LOG"
run_rpm -U -vv --define "_minimize_writes 1" "$PKGS/signed-2.rpm"
expect_rc 0 "upgrade with %_minimize_writes"
# (rpm 4.18 logs the file's base name, 4.19 on the whole path)
expect_out "touch +100644 .*[ /]one$" "rpm touched the unchanged file"
called_for $D/one || fail "touched file $D/one not protected"

: >"$VERITY_SHIM_LOG"
new_root config
run_rpm -i --define "_fsverity_sign_config_files 1" "$PKGS/signed-1.rpm"
expect_rc 0 "config"
called_for /etc/vt-demo.conf || fail "%_fsverity_sign_config_files 1: config not protected"

: >"$VERITY_SHIM_LOG"
new_root excludedocs
run_rpm -i --excludedocs "$PKGS/signed-1.rpm"
expect_rc 0 "--excludedocs"
[ "$(calls)" = 4 ] || fail "--excludedocs: $(calls) calls, want 4"

for flag in --test --justdb; do
	: >"$VERITY_SHIM_LOG"
	new_root "x$flag"
	run_rpm -i $flag --define "_fsverity_policy enforce" "$PKGS/vt-demo-1.rpm"
	expect_rc 0 "$flag"
	[ "$(calls)" = 0 ] || fail "$flag: the plugin asked for verity"
	expect_no_out "verity: " "$flag"
done

# The kernel refuses the signature.
for e in "ENOKEY:signature rejected: certificate not in .fs-verity keyring" \
	 "EKEYREJECTED:signature rejected: it does not match the file's contents"; do
	export VERITY_SHIM_ERRNO="${e%%:*}" msg="${e#*:}"
	new_root "enforce-$VERITY_SHIM_ERRNO"
	run_rpm -i --define "_fsverity_policy enforce" "$PKGS/signed-1.rpm"
	expect_rc 1 "enforce $VERITY_SHIM_ERRNO"
	expect_out "^error: verity: /usr/share/doc/vt-demo/README: $msg" "enforce $VERITY_SHIM_ERRNO"
	left=$(find "$ROOT/usr" "$ROOT/etc" -type f 2>/dev/null || true)
	[ -z "$left" ] || fail "enforce $VERITY_SHIM_ERRNO: files left: $left"

	new_root "warn-$VERITY_SHIM_ERRNO"
	run_rpm -i "$PKGS/signed-1.rpm"
	expect_rc 0 "warn $VERITY_SHIM_ERRNO"
	n=$(count_out "^warning: verity: .*: $msg")
	[ "$n" = 5 ] || { show; fail "warn $VERITY_SHIM_ERRNO: $n warnings, want one per file (5)"; }
	[ -f "$ROOT$D/two" ] || fail "warn $VERITY_SHIM_ERRNO: files missing"
done

# Already enabled is not a failure.
export VERITY_SHIM_ERRNO=EEXIST
new_root eexist
run_rpm -i --define "_fsverity_policy enforce" "$PKGS/signed-1.rpm"
expect_rc 0 "EEXIST"
finish "read-only fd, no writer, right parameters; enforce/warn on refusals"
