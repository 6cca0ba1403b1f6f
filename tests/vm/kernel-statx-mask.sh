#!/bin/bash
# Guest test for kernel-patches 0006 (btrfs: report STATX_ATTR_VERITY in
# stx_attributes_mask): statx(2) on btrfs must list STATX_ATTR_VERITY in
# stx_attributes_mask for every file, as ext4 does, and set the attribute
# only on files with verity.  Fails on a kernel without the patch, where the
# attribute is set but the mask lacks it.

. "$(dirname "$0")/kernel-lib.sh"
need_guest
[ -b "${SCRATCH_DEV2:-}" ] || skip "SCRATCH_DEV2 is not a block device"

mount_btrfs "$SCRATCH_DEV" "$MNT"
mount_ext4 "$SCRATCH_DEV2" "$MNT2"
for m in "$MNT" "$MNT2"; do
	make_file "$m/plain" 1
	make_file "$m/verity" 1
	fsverity enable "$m/verity" || fail "fsverity enable $m/verity"
done
KT_DIR=$(cd "$(dirname "$0")/../tools" && pwd) $PY - "$MNT" "$MNT2" <<'PYEOF' || fail "statx reports verity wrongly"
import os, sys
sys.path.insert(0, os.environ["KT_DIR"])
sys.dont_write_bytecode = True
from verity_kernel import STATX_ATTR_VERITY, statx_attributes
bad = 0
for mnt in sys.argv[1:]:
    for name, want in (("plain", 0), ("verity", STATX_ATTR_VERITY)):
        path = os.path.join(mnt, name)
        attrs, mask = statx_attributes(path)
        if not mask & STATX_ATTR_VERITY:
            print(f"{path}: STATX_ATTR_VERITY missing from stx_attributes_mask", file=sys.stderr)
            bad = 1
        if attrs & STATX_ATTR_VERITY != want:
            print(f"{path}: STATX_ATTR_VERITY is {'off' if want else 'on'}", file=sys.stderr)
            bad = 1
        print(f"{path}: attributes {attrs:#x} mask {mask:#x}")
sys.exit(bad)
PYEOF
ok "statx reports STATX_ATTR_VERITY, and its mask, on btrfs as on ext4"
umount "$MNT" "$MNT2"
finish kernel-statx-mask
