#!/bin/bash
# The distribution under IPE (Linux 6.12 on; ctest boots 7.3). Boots a copy of the
# root distro/make-root --ipe installed from repo-ipe (fs-verity signatures
# only, no IMA tags) through its initramfs, which activates
# distribution-keys' signed IPE policy before the root's init runs; ipe.guest
# then shows the policy in force, the signed system working under it, code
# written by hand refused everywhere (exec, ld.so, memfd, dlopen, anonymous
# executable memory), a digest revoked by a newer signed policy, and root
# making IPE permissive; then it reboots through systemd, and the next boot
# (after-reboot.guest) finds nothing refused in the shutdown or in itself. Host side: checks that repo-ipe's packages carry no
# IMA signature and signs the revoking policy with the distribution's key.
# Needs root and QEMU; boots the guest RPMVERITY_KERNEL names (ctest: RPMVERITY_IPE_KERNEL, 7.3)
# twice, and skips on a kernel without IPE.
. "$(dirname "$0")/lib.sh"
kdir=$("$TOP/vm/cache-dir")/kernel/${RPMVERITY_KERNEL:-default}
grep -q '^CONFIG_SECURITY_IPE=y' "$kdir/build/.config" 2>/dev/null ||
	skip "kernel '${RPMVERITY_KERNEL:-default}' has no IPE (or is not built); run with RPMVERITY_KERNEL=7.3 (or 6.12)"
distro_setup --ipe
tool=$TOP/keys/rpm-verity-ipe-policy

echo "# repo-ipe: fs-verity signatures only"
# One entry per file, ended by \x1e: the base64 signatures hold newlines,
# and rpm prints "(none)" for a package without the tag.
entries() {
	rpm -qp --qf "[%{$1}"$'\x1e'"]" "$DISTRO"/repo-ipe/*.rpm 2>/dev/null | tr '\n\036' ' \n' | grep -cv '^$\|^(none)$'
}
ima=$(entries FILESIGNATURES)
verity=$(entries VERITYSIGNATURES)
[ "$ima" = 0 ] && [ "$verity" -gt 1000 ] &&
	ok "$verity fs-verity signatures and no IMA signature in repo-ipe's packages" ||
	fail "repo-ipe: $verity fs-verity and $ima IMA signatures"

echo "# the policy 1.0.1, revoking /usr/bin/fsverity by its digest"
digest=$(awk -F'\t' '$2 == "/usr/bin/fsverity" {print $3}' "$DISTRO/repo-ipe.manifest")
[ -n "$digest" ] || bail "no /usr/bin/fsverity in $DISTRO/repo-ipe.manifest"
echo "$digest" >"$WORK/share/revoked-digest"
keys=$DISTRO/keys/distribution
"$tool" make --name rpm-verity-distro --version 1.0.1 --revoke "$digest" >"$WORK/revoke.txt" &&
	"$tool" sign --key "$keys/signing-key.pem" --cert "$keys/cert.pem" "$WORK/revoke.txt" \
		"$WORK/share/revoke.p7s" || bail "cannot make and sign the revoking policy"

fresh_copy ipe
disk_boot ipe /run/rvshare/ipe.guest
grep -E '^(ok|FAIL|BAIL|#) ' "$WORK/ipe.out" | sed 's/^/  /'
said ipe 'rpm-verity-load-certs: .* certificate' &&
	ok "the initramfs loaded the distribution's certificate" ||
	fail "no word of the certificates from the initramfs"
said ipe 'rpm-verity-ipe-policy: rpm-verity-distro 1\.0\.0 is the active IPE policy' &&
	ok "the initramfs activated the IPE policy before switching root" ||
	fail "no word of the IPE policy from the initramfs"
passed_under_policy ipe "distro ipe" "the distribution under IPE"
rebooted ipe ipe
finish distro-ipe
