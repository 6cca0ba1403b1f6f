#!/bin/sh
# dracut pre-pivot hook (module 90rpm-verity): puts the IMA certificates the
# initramfs was built with onto .ima and writes its IMA policy, once the root
# is mounted and before its init runs, so the system's own init and all that
# follows run under appraisal. The certificates come first: a policy without
# its keys refuses every signed file too. A certificate .ima refuses is
# reported and the boot goes on (nothing unsigned runs either way); a policy
# the kernel cannot take stops the boot, since the system would otherwise run
# unappraised. rd.rpm-verity.ima=0 on the kernel command line skips both (for
# debugging and measurements; whoever sets the command line chooses init too).
type warn >/dev/null 2>&1 || . /lib/dracut-lib.sh

if ! getargbool 1 rd.rpm-verity.ima; then
    warn "rpm-verity: rd.rpm-verity.ima=0: no IMA certificates or policy loaded"
else
    [ -d /sys/kernel/security/ima ] ||
        mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
    if [ -d /etc/pki/rpm-verity-initrd/ima ] &&
        ! /usr/sbin/rpm-verity-load-ima-certs /etc/pki/rpm-verity-initrd/ima; then
        warn "rpm-verity: IMA certificates not loaded; signed files will not run"
    fi
    if [ -f /etc/rpm-verity/ima-policy ]; then
        if cat /etc/rpm-verity/ima-policy >/sys/kernel/security/ima/policy; then
            echo "rpm-verity: IMA policy loaded from /etc/rpm-verity/ima-policy"
        else
            die "rpm-verity: the kernel did not take the IMA policy /etc/rpm-verity/ima-policy (IMA, IMA_WRITE_POLICY?)"
        fi
    fi
fi
