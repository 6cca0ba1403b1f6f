# Where the signed package cannot be written: a read-only output directory,
# a package on a read-only filesystem signed in place, a full filesystem
# (in place and with -o). Each must fail with the path and the reason, and
# leave the input byte-identical with no temporary file anywhere.
. "$(dirname "$0")/lib.sh"
need_root "mounts small and read-only tmpfs filesystems"
scratch
key rsa2048
src=$(copy_pkg kinds "$SCRATCH/src")
before_src=$(state "$SCRATCH/src")

mnt() {  # mnt DIR OPTIONS: a tmpfs on DIR, unmounted at exit
	mkdir -p "$1"
	mount -t tmpfs -o "$2" rvtest "$1" || fail "cannot mount a tmpfs on $1"
	at_exit "umount '$1'"
}

note "read-only output directory"
mnt "$SCRATCH/ro-out" ro,size=4m
expect_fail "sign -o a read-only directory" "ro-out.*(read-only|permission)" \
	"$RPMVERITY" sign --key "$KEY" --cert "$CERT" -o "$SCRATCH/ro-out" "$src"
same_state "sign -o read-only" "$SCRATCH/src" "$before_src"
[ -z "$(ls -A "$SCRATCH/ro-out")" ] || fail "files appeared in the read-only directory"

note "output directory not writable for the user"
if command -v setpriv >/dev/null; then
	mkdir "$SCRATCH/nobody" "$SCRATCH/nobody/out" && cp "$src" "$KEY" "$CERT" "$SCRATCH/nobody/"
	chmod a+rx "$SCRATCH" "$SCRATCH/nobody" && chmod a+r "$SCRATCH/nobody"/* && chmod 555 "$SCRATCH/nobody/out"
	nb=$(state "$SCRATCH/nobody")
	expect_fail "sign -o an unwritable directory (as nobody)" "out.*permission" \
		setpriv --reuid=65534 --regid=65534 --clear-groups "$RPMVERITY" sign \
		--key "$SCRATCH/nobody/signing-key.pem" --cert "$SCRATCH/nobody/cert.pem" \
		-o "$SCRATCH/nobody/out" "$SCRATCH/nobody/kinds.rpm"
	same_state "unwritable directory" "$SCRATCH/nobody" "$nb"
	expect_fail "sign in place in an unwritable directory (as nobody)" "kinds\.rpm|nobody.*permission" \
		setpriv --reuid=65534 --regid=65534 --clear-groups "$RPMVERITY" sign \
		--key "$SCRATCH/nobody/signing-key.pem" --cert "$SCRATCH/nobody/cert.pem" \
		"$SCRATCH/nobody/out/../kinds.rpm"
fi

note "in place on a read-only filesystem"
mnt "$SCRATCH/ro" size=4m
# signed, so strip has something to remove
expect_ok "sign into the filesystem" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" -o "$SCRATCH/ro" "$src"
mount -o remount,ro "$SCRATCH/ro" || fail "cannot make $SCRATCH/ro read-only"
before=$(state "$SCRATCH/ro")
expect_fail "sign in place, read-only" "kinds\.rpm|ro.*read-only" \
	"$RPMVERITY" sign --key "$KEY" --cert "$CERT" "$SCRATCH/ro/kinds.rpm"
same_state "sign in place, read-only" "$SCRATCH/ro" "$before"
expect_fail "strip in place, read-only" "kinds\.rpm|ro.*read-only" "$RPMVERITY" strip "$SCRATCH/ro/kinds.rpm"
same_state "strip in place, read-only" "$SCRATCH/ro" "$before"

note "full filesystem, in place"
size=$(stat -c %s "$src")
mnt "$SCRATCH/full" "size=$((size + 8192))"
cp "$src" "$SCRATCH/full/" || fail "the package does not fit the small tmpfs"
# fill what is left
dd if=/dev/zero of="$SCRATCH/full/filler" bs=4k 2>/dev/null || true
before=$(state "$SCRATCH/full")
expect_fail "sign in place on a full filesystem" "kinds\.rpm.*(space|full)|(space|full).*kinds\.rpm|full.*space" \
	"$RPMVERITY" sign --key "$KEY" --cert "$CERT" "$SCRATCH/full/kinds.rpm"
same_state "full filesystem, in place" "$SCRATCH/full" "$before"
[ "$(df --output=used -B1 "$SCRATCH/full" | tail -1)" -le "$(( $(du -sb "$SCRATCH/full" | cut -f1) + 65536 ))" ] ||
	fail "space is still in use on the full filesystem (an unnamed temporary file left open?)"

note "full filesystem, -o"
mnt "$SCRATCH/small" size=64k
expect_fail "sign -o a too small filesystem" "small.*(space|full)|(space|full).*small|kinds\.rpm.*space" \
	"$RPMVERITY" sign --key "$KEY" --cert "$CERT" -o "$SCRATCH/small" "$src"
same_state "full filesystem, -o" "$SCRATCH/src" "$before_src"
[ -z "$(ls -A "$SCRATCH/small")" ] || fail "left in the full output directory: $(ls -A "$SCRATCH/small")"
finish "$TEST"
