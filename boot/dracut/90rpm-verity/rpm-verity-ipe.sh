#!/bin/sh
# dracut pre-pivot hook (module 90rpm-verity): loads the signed IPE policy
# the initramfs was built with and makes it the active one, once the root is
# mounted and before its init runs; from then on only the initramfs's own
# files and files whose fs-verity signature the kernel verified run. It runs
# after the other pre-pivot hooks that may run the root's programs (the IMA
# hook at 90, SELinux's policy load at 50). A policy the kernel does not take
# (unsigned, a signer it does not trust, a version below the active one's, a
# kernel without IPE) stops the boot: the system would otherwise run with
# nothing enforced.
type die >/dev/null 2>&1 || . /lib/dracut-lib.sh

[ -d /sys/kernel/security/ipe ] ||
    mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
if /usr/sbin/rpm-verity-ipe-policy load /etc/rpm-verity/ipe-policy.p7s; then
    # Booted with ipe.enforce=0, the policy is active and refuses nothing.
    _rv_enforce=
    read -r _rv_enforce </sys/kernel/security/ipe/enforce || :
    [ "$_rv_enforce" = 1 ] ||
        warn "rpm-verity: IPE is permissive (ipe.enforce=0?): the policy is active but refuses nothing"
    unset _rv_enforce
else
    die "rpm-verity: the kernel did not take the IPE policy /etc/rpm-verity/ipe-policy.p7s; not booting a system that would run unenforced"
fi
