#!/bin/bash
# Smoke test of the guest kernel (runs inside vm/run): btrfs fs-verity works
# end to end. A file on a btrfs mounted without data checksums gets verity;
# the kernel's measurement equals the digest userspace computes; then one
# block is changed on the raw device, and after dropping caches the read fails
# with EIO and the kernel log blames fs-verity, not btrfs.
. "$(dirname "$0")/lib.sh"

mnt=/tmp/smoke
mkfs_mount btrfs "$SCRATCH_DEV" "$mnt"
f=$mnt/data.bin
marker="rpm-verity-smoke-marker-$$-$RANDOM$RANDOM"
# 64 blocks of pseudo-random data; the marker opens block 40.
python3 - "$f" "$marker" <<'PY'
import random, sys
rnd = random.Random(1)
data = bytearray(rnd.randbytes(64 * 4096))
m = sys.argv[2].encode()
data[40 * 4096:40 * 4096 + len(m)] = m
open(sys.argv[1], "wb").write(data)
PY
want=$(digest_of "$f")
check "fsverity enable on btrfs" fsverity enable "$f"
check "statx reports verity" has_verity "$f"
check_eq "kernel measurement equals the userspace digest" "$(measured "$f")" "$want"
drop_caches
check "verity file reads back intact" cmp -s "$f" <(python3 -c '
import random, sys
rnd = random.Random(1); data = bytearray(rnd.randbytes(64 * 4096)); m = sys.argv[1].encode()
data[40 * 4096:40 * 4096 + len(m)] = m; sys.stdout.buffer.write(data)' "$marker")

off=$(find-bytes "$SCRATCH_DEV" "$marker") || bail "marker not found on $SCRATCH_DEV"
echo "# marker at byte $off of $SCRATCH_DEV"
poke-byte "$SCRATCH_DEV" $((off + 100))
drop_caches
dmesg -C
check "read of the tampered file fails with EIO" read_fails_eio "$f"
check "kernel log names fs-verity" kernel_log_has 'fs-verity.*FILE CORRUPTED'
dmesg | grep -E 'verity|BTRFS' | tail -5
umount "$mnt"
finish
