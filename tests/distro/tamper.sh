#!/bin/bash
# One byte changed on the disk, under the root's files, then the system
# booted. Under libc, which every program loads, the boot
# must fail loudly and run nothing (vm/run reports no status from the job).
# Under /usr/bin/fsverity, a binary one command uses, that command fails
# with EIO and the rest of the system works. The byte is in each file's
# first block, which the kernel reads before anything runs (execve, or
# ld.so's read of libc), so both fail with EIO rather than a later SIGBUS.
# Under a small file, 1,003 bytes of Python (this.py, the size fstests'
# generic/574 corrupts at offset 512): reading it fails with EIO. The root
# is made with max_inline=0, so the small file has an extent of its own,
# which flip-byte finds; a small file inline in the metadata is tampered
# with in tests/vm (e2e-packages, kernel-inline-verity), where btrfs
# verifies it the same way (kernel-patches/inline-verity.md).
# Host side; needs root and QEMU; boots twice.
. "$(dirname "$0")/lib.sh"
distro_setup
libc=/usr/lib/x86_64-linux-gnu/libc.so.6
bin=/usr/bin/fsverity

fresh_copy libc
"$DT_DIR/../tools/flip-byte" "$WORK/libc.img" "$libc" 0 200 || bail "cannot change a byte of libc"
disk_boot libc /run/rvshare/tamper.guest "$bin" --version
if [ $rc != 0 ] && ! said libc TAMPER-GUEST-RAN; then
	ok "a changed byte under libc stops the boot (vm/run status $rc): $(grep -m1 -E 'Kernel panic|Input/output error|FILE CORRUPTED' "$WORK/libc.out")"
else
	tail -30 "$WORK/libc.out"; fail "the system booted on a corrupted libc (status $rc)"
fi
said libc 'FILE CORRUPTED|Input/output error' && ok "the console says why" ||
	{ tail -20 "$WORK/libc.out"; fail "no corruption or I/O error on the console"; }

fresh_copy bin
"$DT_DIR/../tools/flip-byte" "$WORK/bin.img" "$bin" 0 100 || bail "cannot change a byte of $bin"
disk_boot bin /run/rvshare/tamper.guest "$bin" --version
grep -E '^(ok|FAIL|#) ' "$WORK/bin.out" | sed 's/^/  /'
if [ $rc = 0 ] && said bin 'PASS: distro tamper'; then
	ok "$bin fails with EIO, the rest of the system works"
else
	tail -30 "$WORK/bin.out"; fail "a changed byte under $bin (status $rc)"
fi
small=/usr/lib/python3.11/this.py
fresh_copy small
"$DT_DIR/../tools/flip-byte" "$WORK/small.img" "$small" 0 512 || bail "cannot change a byte of $small"
disk_boot small /run/rvshare/tamper.guest cat "$small"
grep -E '^(ok|FAIL|#) ' "$WORK/small.out" | sed 's/^/  /'
if [ $rc = 0 ] && said small 'PASS: distro tamper'; then
	ok "a small file ($(stat -c %s "$small") bytes) fails with EIO, the rest of the system works"
else
	tail -30 "$WORK/small.out"; fail "a changed byte under $small (status $rc)"
fi
finish distro-tamper
