#!/bin/sh
# dracut pre-mount hook (module 90rpm-verity): loads the fs-verity
# certificates the initramfs was built with, before the root is mounted.
# A failure is reported and the boot goes on: the kernel refuses every signed
# file whose certificate is missing, so nothing unverified runs either way.
type warn >/dev/null 2>&1 || . /lib/dracut-lib.sh

# shellcheck disable=SC2046
if ! /usr/sbin/rpm-verity-load-certs $(cat /etc/rpm-verity-load-certs.args); then
    warn "rpm-verity: certificates not loaded; files protected by fs-verity will not open"
fi
