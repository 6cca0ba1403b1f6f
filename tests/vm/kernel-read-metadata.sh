#!/bin/bash
# Guest test for kernel-patches 0002 (btrfs: support
# FS_IOC_READ_VERITY_METADATA): "fsverity dump_metadata" of the Merkle tree,
# the descriptor and the builtin signature must work on btrfs and give the
# same bytes as ext4 for the same file and signature.  Fails on a kernel
# without the patch, where btrfs answers ENOTTY.

. "$(dirname "$0")/kernel-lib.sh"
need_guest
[ -b "${SCRATCH_DEV2:-}" ] || skip "SCRATCH_DEV2 is not a block device"
for t in openssl keyctl mkfs.ext4; do
	command -v $t >/dev/null || fail "$t is missing in the guest"
done

w=/tmp/kt-keys
mkdir -p "$w"
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$w/key.pem" \
	-out "$w/cert.pem" -subj /CN=kernel-read-metadata -days 2 2>/dev/null ||
	fail "openssl could not make a test certificate"
openssl x509 -in "$w/cert.pem" -outform der -out "$w/cert.der" || fail "cert.der"
keyctl padd asymmetric '' %keyring:.fs-verity <"$w/cert.der" >/dev/null ||
	fail "cannot add the test certificate to the .fs-verity keyring"

mount_btrfs "$SCRATCH_DEV" "$MNT"
mount_ext4 "$SCRATCH_DEV2" "$MNT2"
# 5 MiB plus a bit: a two-level Merkle tree with a partial last block.
make_file "$w/data" 5.01
fsverity sign "$w/data" "$w/sig" --key="$w/key.pem" --cert="$w/cert.pem" \
	>/dev/null || fail "fsverity sign"

for m in "$MNT" "$MNT2"; do
	cp "$w/data" "$m/file" && sync || fail "cp to $m"
	fsverity enable --signature="$w/sig" "$m/file" ||
		fail "fsverity enable on $m"
done
[ "$(measured "$MNT/file")" = "$(measured "$MNT2/file")" ] ||
	fail "btrfs and ext4 measure different digests"

for round in warm cold; do
	[ $round = cold ] && echo 3 >/proc/sys/vm/drop_caches
	for type in merkle_tree descriptor signature; do
		for fs in btrfs ext4; do
			m=$MNT; [ $fs = ext4 ] && m=$MNT2
			fsverity dump_metadata $type "$m/file" >"$w/$type.$fs" ||
				fail "dump_metadata $type on $fs ($round cache)"
		done
		[ -s "$w/$type.btrfs" ] || fail "empty $type from btrfs"
		cmp "$w/$type.btrfs" "$w/$type.ext4" ||
			fail "$type differs between btrfs and ext4 ($round cache)"
		echo "$type: $(stat -c %s "$w/$type.btrfs") bytes, same on btrfs and ext4 ($round)"
	done
done
cmp "$w/signature.btrfs" "$w/sig" || fail "dumped signature is not the one enabled"

# Reads at an offset and with a length work and agree as well.
for fs in btrfs ext4; do
	m=$MNT; [ $fs = ext4 ] && m=$MNT2
	fsverity dump_metadata merkle_tree "$m/file" --offset=4000 --length=5000 \
		>"$w/part.$fs" || fail "partial dump_metadata on $fs"
done
[ "$(stat -c %s "$w/part.btrfs")" = 5000 ] || fail "partial merkle_tree read has the wrong size"
cmp "$w/part.btrfs" "$w/part.ext4" || fail "partial merkle_tree differs"
ok "btrfs's metadata reads agree with ext4's, whole and in part"

umount "$MNT" "$MNT2"
finish kernel-read-metadata
