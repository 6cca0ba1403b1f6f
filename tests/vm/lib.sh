# Shell helpers for the guest-side VM test scripts (sourced, bash): scratch
# filesystems, cache dropping, kernel-log checks, installing with the plugin.
# Checks are tests/lib/testlib.sh's, kept going: every check of a boot is
# reported, and a script calls `finish` at the end, which exits 1 if any
# failed.

VMT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$VMT_DIR/../lib/testlib.sh"
set -uo pipefail
keep_going
export PATH=$TOOLS_DIR:$VMT_DIR:$PATH
# An upstream rpm (4.20, 6.x; upstream-rpm/build) first, for the rpm-matrix
# runs of a build against it: rpm, rpmdb and rpmv below are then that rpm.
if [ -n "${RPMVERITY_RPM_BINDIR:-}" ]; then
	export PATH=$RPMVERITY_RPM_BINDIR:$PATH
fi
rpm_install_opts

drop_caches() { sync; echo 3 >/proc/sys/vm/drop_caches; }

# mkfs_mount FSTYPE DEV DIR [inline]: fresh filesystem; btrfs without data
# checksums and inline extents, so a changed block reaches fs-verity and
# nothing else; with "inline", btrfs keeps files up to 2,048 bytes in its
# metadata leaves as it does by default (tests/tools/btrfs-inline-poke
# changes them there).
mkfs_mount() {
	local fs=$1 dev=$2 dir=$3 inl=max_inline=0
	[ "${4:-}" = inline ] && inl=max_inline=2048
	mkdir -p "$dir"
	case $fs in
	btrfs) mkfs.btrfs -q -f "$dev" >/dev/null && mount -o nodatasum,$inl "$dev" "$dir" ;;
	ext4) mkfs.ext4 -q -F -O verity "$dev" >/dev/null && mount "$dev" "$dir" ;;
	*) bail "mkfs_mount: unknown filesystem $fs" ;;
	esac || bail "cannot make and mount $fs on $dev"
}

# read_fails_eio FILE: reading FILE fails, and with EIO.
read_fails_eio() {
	local err
	err=$(cat "$1" 2>&1 >/dev/null) && return 1
	case $err in *"Input/output error"*) return 0 ;; esac
	echo "  read of $1 failed, but not with EIO: $err"
	return 1
}

# mmap_faults FILE: touching every page of FILE through mmap dies of SIGBUS.
mmap_faults() {
	python3 -c '
import mmap, sys
with open(sys.argv[1], "rb") as f, mmap.mmap(f.fileno(), 0, prot=mmap.PROT_READ) as m:
    sum(m[i] for i in range(0, len(m), 4096))
' "$1" 2>/dev/null
	[ $? = 135 ] # 128 + SIGBUS
}

# fiemap FILE: "logical physical length flags" (bytes; flags in hex) for
# each extent, from FS_IOC_FIEMAP.
fiemap() {
	python3 - "$1" <<'PY'
import fcntl, struct, sys
count = 8
buf = bytearray(struct.pack("<QQIIII", 0, 2**64 - 1, 1, 0, count, 0) + bytes(56 * count))
with open(sys.argv[1], "rb") as f:
    fcntl.ioctl(f.fileno(), 0xC020660B, buf)   # FS_IOC_FIEMAP, FIEMAP_FLAG_SYNC
for i in range(struct.unpack_from("<I", buf, 20)[0]):
    lo, ph, ln = struct.unpack_from("<QQQ", buf, 32 + 56 * i)
    fl = struct.unpack_from("<I", buf, 32 + 56 * i + 40)[0]
    print(lo, ph, ln, hex(fl))
PY
}

# is_inline FILE: its first extent has FIEMAP_EXTENT_DATA_INLINE (0x200):
# the data is in the filesystem's metadata (a btrfs leaf), not in a block.
is_inline() {
	local fl
	fl=$(fiemap "$1" | awk 'NR == 1 { print $4 }')
	[ -n "$fl" ] && [ $((fl & 0x200)) != 0 ]
}

# kernel_log_has PATTERN: the kernel log since the last clear matches (grep -E).
kernel_log_has() { dmesg | matches -E "$1"; }

# digest_of FILE: the fs-verity digest userspace computes ("sha256:HEX").
digest_of() { fsverity digest "$@" | cut -d' ' -f1; }
# measured FILE: the digest the kernel reports (FS_IOC_MEASURE_VERITY).
measured() { fsverity measure "$1" | cut -d' ' -f1; }

# has_verity FILE: statx reports STATX_ATTR_VERITY.
has_verity() { "$TOOLS_DIR/statx-verity" "$1"; }

# --- installing test packages with the plugin from the build tree ---
# RPMVERITY_BUILD: the build tree; RPMVERITY_PACKAGES: make-packages.sh output;
# RPMVERITY_RPM: what installs with the plugin (default rpm; in sanitized
# builds tests/tools' rpm-driver, since libasan cannot be preloaded into rpm).
# RPM_INSTALL_OPTS: what every rpm of Debian's, or of upstream's, needs.
BUILD=${RPMVERITY_BUILD:-}
PKGS=${RPMVERITY_PACKAGES:-}

need_build() {
	[ -n "$BUILD" ] && [ -r "$BUILD/plugin/verity.so" ] ||
		bail "RPMVERITY_BUILD=$BUILD: no plugin/verity.so there"
	[ -n "$PKGS" ] && [ -r "$PKGS/vm-demo-1.rpm" ] ||
		bail "RPMVERITY_PACKAGES=$PKGS: no test packages (tests/vm/make-packages.sh)"
	CERT=$PKGS/trusted/cert.pem
	echo "# installing with ${RPMVERITY_RPM:-$(command -v rpm)} ($(rpm --version))"
}

# new_root DIR: an empty rpmdb under DIR.
new_root() {
	ROOT=$1
	rpm --root "$ROOT" --dbpath /var/lib/rpm --initdb || bail "rpm --initdb in $ROOT failed"
}

# rpmv POLICY [rpm args...]: rpm on $ROOT with our plugin, the trusted test
# certificate and POLICY. Output in $RPM_OUT (also printed), status returned.
RPM_OUT=/tmp/rpm.out
rpmv() {
	local policy=$1; shift
	ASAN_OPTIONS=detect_leaks=0 "${RPMVERITY_RPM:-rpm}" \
		--root "$ROOT" --dbpath /var/lib/rpm --nodeps "${RPM_INSTALL_OPTS[@]}" \
		--define "__plugindir $BUILD/plugin" \
		--define "__transaction_verity %{__plugindir}/verity.so" \
		--define "_fsverity_certs $CERT" \
		--define "_fsverity_policy $policy" \
		${RPMV_DEFINES[@]+"${RPMV_DEFINES[@]}"} "$@" >"$RPM_OUT" 2>&1
	local rc=$?
	sed 's/^/  rpm: /' "$RPM_OUT"
	if grep -qE 'ERROR: (Address|Undefined)Sanitizer|runtime error:' "$RPM_OUT"; then
		fail "sanitizer report while running rpm $*"
	fi
	return $rc
}
rpm_said() { grep -qE -- "$1" "$RPM_OUT"; }

# installed_check NAME PKGFILE [--expect none]: check-installed on $ROOT.
installed_check() {
	local name=$1 file=$2; shift 2
	check-installed "$ROOT" "$name" "$CERT" "$PKGS/payload/$file" "$@"
}

# leftovers DIR: files under DIR other than the rpmdb (empty when clean).
leftovers() { find "$1" -mindepth 1 \( -path "$1/var/lib/rpm" -o -path "$1/var/lib/rpm/*" \) -prune -o ! -type d -print; }

# --- fault tests (fault-enospc.sh, fault-eio.sh) ---
# rpmdb_outside: $ROOT's rpmdb kept on the guest's tmpfs and bind-mounted
# in, so rpm's database writes and fsyncs never touch the filesystem under
# test (its free space, its I/O), and the rpmdb survives remount_root.
rpmdb_outside() {
	RPMDB_DIR=$(mktemp -d /tmp/rvdb.XXXXXX) || bail "mktemp"
	mkdir -p "$ROOT/var/lib/rpm" && mount --bind "$RPMDB_DIR" "$ROOT/var/lib/rpm" ||
		bail "cannot bind $RPMDB_DIR on $ROOT/var/lib/rpm"
	at_exit "umount '$ROOT/var/lib/rpm' 2>/dev/null"
}

# remount_root DEV OPTIONS: unmount $ROOT and mount DEV there again (a
# filesystem the kernel forced read-only comes back writable), rpmdb too.
remount_root() {
	umount "$ROOT/var/lib/rpm" && umount "$ROOT" && mount -o "$2" "$1" "$ROOT" &&
		mount --bind "$RPMDB_DIR" "$ROOT/var/lib/rpm"
}

# rpm_temporaries DIR: rpm's temporary files under DIR (NAME;XXXXXXXX).
rpm_temporaries() { find "$1" -name '*;*' ! -type d 2>/dev/null; }

# describe_temporaries DIR: each of rpm's temporary files under DIR with
# its size, mode, lsattr, statx verity and fsverity measure.
describe_temporaries() {
	local f
	rpm_temporaries "$1" | while read -r f; do
		if [ -L "$f" ]; then
			echo "  left: $f (symlink to $(readlink "$f"))"
			continue
		fi
		echo "  left: $f ($(stat -c '%s bytes, mode %a' "$f"))"
		echo "    lsattr: $(lsattr -d "$f" 2>&1)"
		echo "    verity: $(has_verity "$f" && echo on || echo off); measure: $(fsverity measure "$f" 2>&1)"
	done
}

# check_temporaries WHAT DIR [--expected]: rpm left no temporary file under
# DIR (with --expected, leftovers are reported, not failed). Any that is
# left is described and must yield to rm (verity files cannot be written,
# but they can be unlinked).
check_temporaries() {
	local what=$1 dir=$2 f left
	left=$(rpm_temporaries "$dir")
	if [ -z "$left" ]; then
		ok "$what: rpm left no temporary file"
		return
	fi
	if [ "${3:-}" = --expected ]; then
		note "$what: rpm left $(wc -l <<<"$left") temporary files"
	else
		fail "$what: rpm left temporary files"
	fi
	describe_temporaries "$dir"
	while read -r f; do
		check "rm removes the leftover $f" rm "$f"
	done <<<"$left"
}

# writable DIR: the filesystem under DIR still takes a new file.
writable() { echo probe >"$1/.probe" && rm "$1/.probe"; }

# --- IPE (tests/vm/ipe.sh, ipe-signer.sh) ---
# write_status FILE DATA: one write(2) of DATA's bytes to FILE (a securityfs
# file such as IPE's new_policy takes a policy only whole); "ok" or the
# errno name.
write_status() {
	python3 - "$1" "$2" <<'PY'
import errno, os, sys
data = open(sys.argv[2], "rb").read()
try:
    fd = os.open(sys.argv[1], os.O_WRONLY)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)
    print("ok")
except OSError as e:
    print(errno.errorcode.get(e.errno, str(e.errno)))
PY
}

# result PROBE: what tests/tools' ipe-probe printed for PROBE, its output
# kept in $T/probe.out.
result() { awk -F'\t' -v p="$1" '$1 == p { print $2; exit }' $T/probe.out; }
# ipe_denied HOOK PATH: an IPE audit record of a denial under enforcement
# for HOOK and PATH (audit hex-encodes a path with a space in it).
# kauditd prints records a moment after the event.
ipe_denied() {
	local hook=$1 path=$2 want i
	case $path in
	*[\ \"]*) want="path=$(printf '%s' "$path" | od -An -tx1 | tr -d ' \n' | tr a-f A-F) " ;;
	*) want="path=\"$path\"" ;;
	esac
	for i in 1 2 3 4 5 6 7 8 9 10; do
		dmesg | grep 'type=1420' | grep "ipe_hook=$hook enforcing=1" | matches -F "$want" && return 0
		sleep 0.3
	done
	dmesg | grep 'type=1420' | sed 's/^/  logged: /' | tail -5
	return 1
}
