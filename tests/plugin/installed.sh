#!/bin/bash
# What `cmake --install` lays down works as installed: verity.so lands in
# the directory rpm's %{__plugindir} names, and the installed
# macros.transaction_verity alone (no --define of %__transaction_verity)
# makes rpm load it, with the documented defaults.
. "$(dirname "$0")/lib.sh"
: "${CMAKE_COMMAND:?}"

DEST=$T/dest
DESTDIR=$DEST "$CMAKE_COMMAND" --install "$BUILD" >"$T/install.log" 2>&1 ||
	{ cat "$T/install.log"; fail "cmake --install failed"; }
plugindir=$(rpm --eval '%{__plugindir}')
macros=$(rpm --eval '%{_rpmconfigdir}')/macros.d/macros.transaction_verity
[ -f "$DEST$plugindir/verity.so" ] || fail "verity.so not installed in $plugindir"
[ -f "$DEST$macros" ] || fail "macros not installed as $macros"
find "$DEST" -name rpm-plugin-verity.8 | grep -q man8 || fail "man page not installed"

# The boot-time loader and what runs it (rpm-verity-load-certs(8)).
for f in rpm-verity-load-certs rpm-verity-load-certs.8 rpm-verity-load-certs.service \
	 90rpm-verity/module-setup.sh 90rpm-verity/rpm-verity-load-certs.sh 90rpm-verity/rpm-verity-ima.sh \
	 initramfs-tools/hooks/rpm-verity scripts/init-premount/rpm-verity; do
	find "$DEST" -path "*/$f" | grep -q . || fail "$f not installed"
done
loader=$(find "$DEST" -path '*/sbin/rpm-verity-load-certs')
"$loader" --help | grep -q -- --print-config || fail "the installed loader does not run"
unit=$(find "$DEST" -name rpm-verity-load-certs.service)
grep -q '^DefaultDependencies=no' "$unit" && grep -q '^Before=sysinit.target' "$unit" ||
	fail "$unit does not run before sysinit"

# rpm with its usual macro files plus ours, the plugin dir moved to DEST.
set -- --load "$DEST$macros" --define "__plugindir $DEST$plugindir"
[ "$(rpm "$@" --eval '%{_fsverity_policy}')" = warn ] || fail "default policy is not warn"
[ "$(rpm "$@" --eval '%{_fsverity_keyring_trust}')" = builtin_and_secondary_trusted ] ||
	fail "default keyring trust is not builtin_and_secondary_trusted"
for m in _fsverity_certs _fsverity_keyring_trust _fsverity_lock_keyring _fsverity_require_signatures \
	 _fsverity_sign_config_files _fsverity_require_fs_support; do
	[ "$(rpm "$@" --eval "%{?$m:defined}")" = defined ] || fail "$m not defined"
done
new_root installed
RC=0
ASAN_OPTIONS=detect_leaks=0 "${VERITY_TEST_RPM:-rpm}" --root "$ROOT" --dbpath /var/lib/rpm --nodeps "${RPM_INSTALL_OPTS[@]}" --noscripts \
	"$@" -ivv "$PKGS/signed-1.rpm" >"$T/out" 2>&1 || RC=$?
expect_rc 0 "install with the installed plugin"
expect_out "Plugin: calling hook init in verity plugin" "installed plugin loaded"
finish "installed plugin and macros are picked up by rpm"
