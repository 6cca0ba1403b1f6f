# Shared helpers for the kernel-*.sh guest tests of the btrfs fs-verity
# patches in kernel-patches/: they run as root inside the QEMU guest started
# by vm/run, which provides SCRATCH_DEV and SCRATCH_DEV2. Checks are
# tests/lib/testlib.sh's: the first failure ends the test.

. "$(dirname "${BASH_SOURCE[0]}")/../lib/testlib.sh"
PY=/usr/bin/python3
MNT=/tmp/kt-mnt
MNT2=/tmp/kt-mnt2

need_guest() {
	[ "$(id -u)" = 0 ] || skip "needs root (run through vm/run)"
	[ -b "${SCRATCH_DEV:-}" ] || skip "SCRATCH_DEV is not a block device (run through vm/run)"
	for t in mkfs.btrfs fsverity $PY; do
		command -v "$t" >/dev/null || fail "$t is missing in the guest"
	done
}

# series_carries SUBJECT: true when the series for the guest kernel's version
# (kernel-patches/series for 6.1, kernel-patches/VERSION/series otherwise, as
# vm/build-kernel picks them by the variant's name) has the patch of that
# subject, so a stock build of that version fails the patch's test as it
# should; a kernel named by its path is taken to carry every patch.
series_carries() {
	local name=${RPMVERITY_KERNEL:-default} list
	case $name in */*) return 0 ;; esac
	list=$("$(dirname "${BASH_SOURCE[0]}")/../../kernel-patches/series-list" -s "$name") ||
		fail "series-list $name"
	cut -f2- <<<"$list" | grep -qxF "$1"
}

# mount_btrfs DEV DIR [OPTS]: fresh btrfs on DEV mounted on DIR.
mount_btrfs() {
	mkdir -p "$2"
	mkfs.btrfs -q -f "$1" >/dev/null || fail "mkfs.btrfs $1"
	mount -t btrfs ${3:+-o "$3"} "$1" "$2" || fail "mount btrfs $1 on $2"
}

# mount_ext4 DEV DIR: fresh ext4 with the verity feature on DEV at DIR.
mount_ext4() {
	mkdir -p "$2"
	mkfs.ext4 -q -F -O verity "$1" >/dev/null || fail "mkfs.ext4 $1"
	mount -t ext4 "$1" "$2" || fail "mount ext4 $1 on $2"
}

# make_file PATH MB: file of MB MiB of deterministic, non-repeating data
# (tests/tools/gen-content.py, as the test packages' files).
make_file() {
	$PY "$TOOLS_DIR/gen-content.py" "$1" "$2M" || fail "cannot write $1"
}

# measured PATH: the digest the kernel reports for a verity file.
measured() {
	fsverity measure "$1" | cut -d' ' -f1
}

# expected PATH: the digest userspace computes from the file contents.
expected() {
	fsverity digest "$1" | cut -d' ' -f1
}

# enable_seconds PATH: run FS_IOC_ENABLE_VERITY on PATH, print its seconds.
enable_seconds() {
	local t0 t1
	t0=$(date +%s%N)
	fsverity enable "$1" || fail "fsverity enable $1"
	t1=$(date +%s%N)
	echo "$(((t1 - t0) / 1000000))" | awk '{ printf "%.3f\n", $1 / 1000 }'
}

# btrfs_check DEV: "btrfs check" of the unmounted DEV must be clean.
btrfs_check() {
	btrfs check --readonly "$1" >/tmp/kt-check.log 2>&1 || {
		cat /tmp/kt-check.log >&2
		fail "btrfs check $1 found problems"
	}
}
