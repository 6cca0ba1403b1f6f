#!/bin/bash
# Does fs-verity check a small btrfs file whose data is inline,
# stored in the file's EXTENT_DATA item in a metadata leaf rather than in a
# data extent? Runs inside vm/run, on every guest kernel we build.
#
# A case is a filesystem, where the data lives, and a Merkle tree block
# size: btrfs inline (max_inline=2048, the default), btrfs with
# max_inline=0 (the data in an extent, the control) and ext4 (the control
# filesystem), with 4 KiB Merkle blocks and, on 6.3 and later, 1 KiB ones.
# Each case makes three 1,024-byte files:
#   v.bin      random bytes with a marker at 512, fs-verity enabled;
#   plain.bin  the same bytes, no fs-verity (the positive control: the
#              change below must reach it, and it must read the new bytes);
#   z.bin      zeros, fs-verity enabled: fstests' generic/574 file, changed
#              the way its _fsv_scratch_corrupt_bytes does, at the physical
#              address fiemap reports plus the offset in the extent.
# Then, unmounted, five bytes at 512 of v.bin and plain.bin are changed
# under the filesystem: in a data extent, on the raw device at the address
# fiemap gave, once the marker is found there; inline, inside every mirror of
# the btrfs leaf, with the leaf's crc32c recomputed (tests/tools/
# btrfs-inline-poke), since a leaf with a bad checksum fails to read with or
# without fs-verity. After a fresh mount:
#   plain.bin reads the changed bytes without an error (the change landed,
#             and the leaf is valid);
#   v.bin     fails to read with EIO, through read(), O_DIRECT and mmap
#             (SIGBUS), and the kernel log says fs-verity found it corrupt;
#   z.bin     fails the same way when fstests' write reached the file, and
#             reads back intact when it did not (the inline case: fiemap
#             reports inline data at physical 0, so the write lands in the
#             unused first sectors of the device) - reported, not a failure.
# The test fails if a changed verity file reads back without an error.
. "$(dirname "$0")/lib.sh"

dev=$SCRATCH_DEV
mnt=/tmp/inl
marker="rpm-verity-inline-$$-$RANDOM$RANDOM"
evil=$(printf 'EVIL!' | od -An -tx1 | tr -d ' \n')
kver=$(uname -r)
echo "# kernel $kver"

# merkle_1k: the kernel takes Merkle tree blocks smaller than the page (6.3+).
merkle_1k() {
	local v=${kver%%-*} maj min
	maj=${v%%.*}; min=${v#*.}; min=${min%%.*}
	[ "$maj" -gt 6 ] || { [ "$maj" = 6 ] && [ "$min" -ge 3 ]; }
}

# write_at DEV OFFSET HEX: HEX bytes at byte OFFSET of DEV, synced.
write_at() {
	python3 - "$@" <<'PY'
import os, sys
fd = os.open(sys.argv[1], os.O_WRONLY)
os.pwrite(fd, bytes.fromhex(sys.argv[3]), int(sys.argv[2]))
os.fsync(fd)
os.close(fd)
PY
}

# expect_bytes FILE OFFSET HEX: FILE reads without error and holds HEX at OFFSET.
expect_bytes() {
	local got
	got=$(dd if="$1" bs=1 skip="$2" count=$((${#3} / 2)) status=none | od -An -tx1 | tr -d ' \n') &&
		[ "$got" = "$3" ] || { echo "  $1 at $2: ${got:-read failed}, want $3"; return 1; }
}

direct_read_fails() { ! dd if="$1" of=/dev/null bs=4096 iflag=direct status=none 2>/dev/null; }

verity_read_fails() {
	read_fails_eio "$1" && direct_read_fails "$1" && mmap_faults "$1"
}

# make_files: the three files of a case in $mnt, verity on v.bin and z.bin.
make_files() {
	local bs=$1
	python3 - "$mnt" "$marker" <<'PY' || bail "cannot write the files"
import os, random, sys
d, m = sys.argv[1], sys.argv[2].encode()
data = bytearray(random.Random(39).randbytes(1024))
data[512:512 + len(m)] = m
for name in ("v.bin", "plain.bin"):
    open(os.path.join(d, name), "wb").write(data)
open(os.path.join(d, "z.bin"), "wb").write(bytes(1024))
PY
	cp "$mnt/plain.bin" /tmp/inl-orig.bin
	check "fsverity enable --block-size=$bs v.bin" fsverity enable --block-size="$bs" "$mnt/v.bin"
	check "fsverity enable --block-size=$bs z.bin" fsverity enable --block-size="$bs" "$mnt/z.bin"
	check_eq "kernel measurement of v.bin equals the userspace digest" \
		"$(measured "$mnt/v.bin")" "$(digest_of --block-size="$bs" /tmp/inl-orig.bin)"
	sync
}

# run_case FS WHERE BS: WHERE is inline or extent.
run_case() {
	local fs=$1 where=$2 bs=$3 name="$1 $2, $3-byte Merkle blocks"
	local vino pino zmap zphys zoff z_flags off inline=0
	echo "# --- $name"
	mkdir -p "$mnt"
	case $fs/$where in
	btrfs/inline)
		mkfs.btrfs -q -f "$dev" >/dev/null && mount -o nodatasum,max_inline=2048 "$dev" "$mnt"
		inline=1 ;;
	btrfs/extent) mkfs.btrfs -q -f "$dev" >/dev/null && mount -o nodatasum,max_inline=0 "$dev" "$mnt" ;;
	ext4/extent) mkfs.ext4 -q -F -O verity "$dev" >/dev/null && mount "$dev" "$mnt" ;;
	esac || bail "cannot make and mount $fs on $dev"
	make_files "$bs"
	vino=$(stat -c %i "$mnt/v.bin"); pino=$(stat -c %i "$mnt/plain.bin")
	local f o
	local -A maps
	for f in v.bin plain.bin z.bin; do
		echo "  fiemap $f: $(fiemap "$mnt/$f" | tr '\n' ';')"
		maps[$f]=$(fiemap "$mnt/$f" | awk 'NR == 1 { print $2 }')
	done
	# fstests: seek = physical + (512 - logical) of the extent holding 512.
	zmap=$(fiemap "$mnt/z.bin" | head -1)
	read -r _ zphys _ z_flags <<<"$zmap"
	zoff=$((zphys + 512))
	if [ $inline = 1 ]; then
		# FIEMAP_EXTENT_DATA_INLINE 0x200 (with NOT_ALIGNED 0x100)
		check "z.bin is inline (fiemap flags $z_flags)" test $((z_flags & 0x200)) != 0
		check "v.bin is inline" is_inline "$mnt/v.bin"
		check "plain.bin is inline" is_inline "$mnt/plain.bin"
		check_eq "fiemap puts z.bin's inline data at physical 0" "$zphys" 0
	else
		check "z.bin is not inline (fiemap flags $z_flags)" test $((z_flags & 0x200)) = 0
	fi
	umount "$mnt" || bail "umount $mnt"

	echo "  fstests' way: z.bin's bytes 512..516 at byte $zoff of $dev"
	write_at "$dev" "$zoff" "$evil"
	if [ $inline = 1 ]; then
		btrfs-inline-poke "$dev" "$vino" 512 "$evil" | sed 's/^/  v.bin: /'
		check "v.bin's inline bytes changed in its leaf" test "${PIPESTATUS[0]}" = 0
		btrfs-inline-poke "$dev" "$pino" 512 "$evil" | sed 's/^/  plain.bin: /'
		check "plain.bin's inline bytes changed in its leaf" test "${PIPESTATUS[0]}" = 0
		check "every mirror of the leaf holds v.bin's new bytes" \
			not_matches -v "$evil\$" <<<"$(btrfs-inline-poke "$dev" "$vino" --show 512 5)"
		check "btrfs check finds the changed filesystem clean" \
			btrfs check --readonly "$dev"
	else
		for f in v.bin plain.bin; do
			# The extent's physical address is right here: the marker is there.
			o=$((${maps[$f]} + 512))
			check_eq "$f's marker is at byte $o of $dev" \
				"$(dd if="$dev" bs=1 skip="$o" count=${#marker} status=none)" "$marker"
			write_at "$dev" "$o" "$evil"
		done
	fi
	echo 3 >/proc/sys/vm/drop_caches
	dmesg -C
	mount -o "$(if [ $fs = btrfs ]; then echo nodatasum,max_inline=$([ $inline = 1 ] && echo 2048 || echo 0); else echo defaults; fi)" \
		"$dev" "$mnt" || bail "mount $dev again"
	check "positive control: plain.bin reads the changed bytes without an error" \
		expect_bytes "$mnt/plain.bin" 512 "$evil"
	check "the changed verity file v.bin fails to read (EIO, O_DIRECT, mmap SIGBUS) [$name]" \
		verity_read_fails "$mnt/v.bin"
	check "the kernel log names fs-verity" kernel_log_has 'verity.*FILE CORRUPTED'
	check "the kernel log has no btrfs checksum error" \
		not_matches -iE 'csum failed|checksum verify failed|bad tree block' <<<"$(dmesg)"
	local zres
	if cat "$mnt/z.bin" >/dev/null 2>&1 && cmp -s "$mnt/z.bin" <(head -c 1024 /dev/zero); then
		zres="reads back intact: the write did not reach the file"
		[ $inline = 1 ] && ok "fstests' fiemap write misses inline z.bin ($zres)" ||
			fail "fstests' fiemap write did not reach z.bin in an extent"
	else
		zres="fails to read"
		[ $inline = 1 ] && fail "z.bin failed to read although fstests' write went to byte $zoff" ||
			ok "fstests' fiemap write reached z.bin, which $zres"
	fi
	dmesg | grep -iE 'verity|btrfs.*(csum|corrupt)' | head -4 | sed 's/^/  kernel: /'
	echo "# RESULT $kver | $name | v.bin: $(cat "$mnt/v.bin" 2>&1 >/dev/null | sed 's/.*: //' || true) | plain.bin: $(expect_bytes "$mnt/plain.bin" 512 "$evil" >/dev/null && echo changed bytes) | z.bin via fiemap: $zres"
	umount "$mnt"
}

not_matches() { ! matches "$@"; }

sizes=4096
if merkle_1k; then
	sizes="4096 1024"
else
	mkfs_mount btrfs "$dev" "$mnt"
	echo x >"$mnt/probe"
	check_fails "Linux $kver refuses 1 KiB Merkle blocks (6.3 added them)" \
		fsverity enable --block-size=1024 "$mnt/probe"
	umount "$mnt"
fi
for bs in $sizes; do
	run_case btrfs inline "$bs"
	run_case btrfs extent "$bs"
	run_case ext4 extent "$bs"
done
finish kernel-inline-verity
