#!/bin/bash
# rpm-verity audit in the guest (vm/run): signed packages installed with the
# plugin onto a fresh FS (btrfs without data checksums, or ext4), then every
# problem made on purpose, checking audit's exact lines and exit status:
# a clean system (exit 0, the summary alone), a certificate not given, a
# file deleted, a file replaced by a plain copy, one package's signed file
# renamed over another package's file, a file enabled by hand with another
# signature; and a tree of many installed files (the package
# make-audit-tree.sh makes, 2,000 in ctest) audits with one line of output
# and exit 0.
# usage: audit.sh btrfs|ext4 [TREE-DIR]
. "$(dirname "$0")/lib.sh"
fs=${1:?usage: audit.sh btrfs|ext4 [TREE-DIR]}
tree=${2:-}
need_build
UNTRUSTED=$PKGS/untrusted/cert.pem
AUDIT=$BUILD/signer/rpm-verity
mnt=/tmp/audit-$fs
mkfs_mount "$fs" "$SCRATCH_DEV" "$mnt"
new_root "$mnt"

# audit_is STATUS LINES...: audit (with $AUDIT_ARGS) exits STATUS and prints
# exactly LINES (in any order), then the summary line.
audit_is() {
	local want_rc=$1 rc=0; shift
	ASAN_OPTIONS=detect_leaks=0 "$AUDIT" audit --root "$mnt" --dbpath /var/lib/rpm \
		"${AUDIT_ARGS[@]}" >/tmp/audit.out 2>/tmp/audit.err || rc=$?
	sed 's/^/  audit: /' /tmp/audit.out /tmp/audit.err
	local want got
	want=$(printf '%s\n' "$@" | sort)
	got=$(grep -v '^audit: ' /tmp/audit.out | sort)
	[ $# = 0 ] && want=""
	[ "$rc" = "$want_rc" ] || { echo "  exit status $rc, want $want_rc"; return 1; }
	[ "$got" = "$want" ] || { echo "  lines differ:"; diff <(echo "$want") <(echo "$got") | sed 's/^/  /'; return 1; }
	[ "$(grep -c '^audit: ' /tmp/audit.out)" = 1 ] || { echo "  no summary line"; return 1; }
	! grep -qE 'Sanitizer|runtime error' /tmp/audit.err
}
line() { printf '%-17s %s' "$1" "$2"; }

echo "# install vm-demo-1 (trusted key) and vm-other-1 (the other key), both certificates loaded"
CERT="$PKGS/trusted/cert.pem $UNTRUSTED"
check "rpm -i of two signed packages under enforce" \
	rpmv enforce -i "$PKGS/vm-demo-1.rpm" "$PKGS/vm-other-1.rpm"
CERT=$PKGS/trusted/cert.pem
drop_caches

AUDIT_ARGS=(--cert "$CERT" --cert "$UNTRUSTED")
check "a clean system: exit 0, the summary alone" audit_is 0
check_eq "the summary" "$(cat /tmp/audit.out)" "audit: 2 packages, 16 files checked, no problems"

echo "# a certificate that is not given"
AUDIT_ARGS=(--cert "$CERT")
other=()
for f in /usr/bin/vm-other-hello /usr/bin/vm-other-true /usr/share/vm-other/{data-1,data-2,data-3,data-4,empty,small}; do
	other+=("$(line untrusted "$f")")
done
check "vm-other's files are untrusted, exit 1" audit_is 1 "${other[@]}"
check_eq "the summary" "$(tail -1 /tmp/audit.out)" "audit: 2 packages, 16 files checked, 8 problems: 8 untrusted"
check "%_fsverity_certs when no --cert: the same" bash -c \
	"echo '%_fsverity_certs $CERT' >/tmp/macros.audit && HOME=/tmp/audithome && mkdir -p \$HOME &&
	 cp /tmp/macros.audit \$HOME/.rpmmacros &&
	 HOME=/tmp/audithome ASAN_OPTIONS=detect_leaks=0 $AUDIT audit --root $mnt --dbpath /var/lib/rpm | grep -c '^untrusted ' | grep -qx 8"
AUDIT_ARGS=(--cert "$CERT" --cert "$UNTRUSTED")
expect=()

d=$mnt/usr/share/vm-demo
echo "# a file deleted"
rm "$d/data-1"
expect+=("$(line missing /usr/share/vm-demo/data-1)")
check "missing" audit_is 1 "${expect[@]}"

echo "# a file replaced by a plain copy"
cp "$d/data-2" /tmp/data-2 && rm -f "$d/data-2" && cp /tmp/data-2 "$d/data-2"
expect+=("$(line verity-off /usr/share/vm-demo/data-2)")
check "verity-off" audit_is 1 "${expect[@]}"

echo "# vm-other's signed data-3 renamed over vm-demo's data-3"
mv -f "$mnt/usr/share/vm-other/data-3" "$d/data-3"
expect+=("$(line missing /usr/share/vm-other/data-3)"
	 "$(line digest-mismatch /usr/share/vm-demo/data-3)"
	 "$(line signature-differs /usr/share/vm-demo/data-3)")
check "digest-mismatch and signature-differs" audit_is 1 "${expect[@]}"

echo "# vm-demo's data-4, enabled by hand with another key's signature"
cp "$d/data-4" /tmp/data-4.new
fsverity sign /tmp/data-4.new /tmp/data-4.sig --key "$PKGS/untrusted/signing-key.pem" \
	--cert "$UNTRUSTED" >/dev/null || bail "fsverity sign"
cp /tmp/data-4.new "$d/.data-4.new"
fsverity enable "$d/.data-4.new" --signature=/tmp/data-4.sig || bail "fsverity enable"
mv -f "$d/.data-4.new" "$d/data-4"
expect+=("$(line signature-differs /usr/share/vm-demo/data-4)")
check "signature-differs alone (same content, same digest)" audit_is 1 "${expect[@]}"
check_eq "the summary" "$(tail -1 /tmp/audit.out)" \
	"audit: 2 packages, 16 files checked, 6 problems: 2 missing, 1 verity-off, 1 digest-mismatch, 2 signature-differs"

echo "# --json for the same"
AUDIT_ARGS+=(--json)
check "--json: the same problems" bash -c "
	ASAN_OPTIONS=detect_leaks=0 $AUDIT audit --root $mnt --dbpath /var/lib/rpm --cert $CERT --cert $UNTRUSTED --json >/tmp/audit.json; [ \$? = 1 ] &&
	python3 -c '
import json, sys
objs = [json.loads(l) for l in open(\"/tmp/audit.json\")]
got = sorted((o[\"problem\"], o[\"path\"]) for o in objs[:-1])
want = sorted([(\"missing\", \"/usr/share/vm-demo/data-1\"), (\"verity-off\", \"/usr/share/vm-demo/data-2\"),
	(\"missing\", \"/usr/share/vm-other/data-3\"), (\"digest-mismatch\", \"/usr/share/vm-demo/data-3\"),
	(\"signature-differs\", \"/usr/share/vm-demo/data-3\"), (\"signature-differs\", \"/usr/share/vm-demo/data-4\")])
assert got == want, got
assert objs[-1][\"summary\"][\"problems\"] == 6
'"
AUDIT_ARGS=(--cert "$CERT" --cert "$UNTRUSTED")

if [ "$fs" = ext4 ]; then
	# What a power cut leaves on btrfs without kernel patch 0007 (verity
	# flag and descriptor durable, inode size 0), made here with debugfs on
	# the unmounted ext4: every open fails with EINVAL, as it did there.
	echo "# vm-demo's small file with its inode size set to 0 on disk"
	umount "$mnt" || bail "umount $mnt"
	debugfs -w -R "sif /usr/share/vm-demo/small size 0" "$SCRATCH_DEV" >/dev/null 2>&1 ||
		bail "debugfs could not change the inode"
	mount "$SCRATCH_DEV" "$mnt" || bail "mount $mnt again"
	check_fails "the kernel refuses to open it" cat "$d/small"
	expect+=("$(line unreadable /usr/share/vm-demo/small)")
	check "unreadable, exit 1" audit_is 1 "${expect[@]}"
	check_eq "the summary counts it" "$(tail -1 /tmp/audit.out)" \
		"audit: 2 packages, 16 files checked, 7 problems: 2 missing, 1 unreadable, 1 verity-off, 1 digest-mismatch, 2 signature-differs"
	check "--verbose gives the kernel's reason" bash -c \
		"ASAN_OPTIONS=detect_leaks=0 $AUDIT audit --root $mnt --dbpath /var/lib/rpm --cert $CERT --cert $UNTRUSTED --verbose |
		 grep -E '^unreadable +/usr/share/vm-demo/small \\(vm-demo-.*: Invalid argument\\)\$'"
fi

echo "# rpm -U --replacepkgs puts it right again"
CERT="$PKGS/trusted/cert.pem $UNTRUSTED"
check "reinstall both" rpmv enforce -U --replacepkgs "$PKGS/vm-demo-1.rpm" "$PKGS/vm-other-1.rpm"
CERT=$PKGS/trusted/cert.pem
check "clean again: exit 0, the summary alone" audit_is 0
umount "$mnt"

if [ -n "$tree" ]; then
	n=$(cd "$tree" && echo ready-*)
	n=${n#ready-}
	echo "# a tree of $n installed files"
	mnt=/tmp/audit-tree-$fs
	mkfs_mount "$fs" "$SCRATCH_DEV2" "$mnt"
	new_root "$mnt"
	CERT=$tree/keys/cert.pem
	check "install the tree" rpmv enforce -i "$tree/vm-tree.rpm"
	drop_caches
	ASAN_OPTIONS=detect_leaks=0 "$AUDIT" audit --root "$mnt" --dbpath /var/lib/rpm \
		--cert "$CERT" >/tmp/audit.out 2>&1
	check_eq "exit status" "$?" 0
	check_eq "one line of output" "$(cat /tmp/audit.out)" \
		"audit: 1 package, $n files checked, no problems"
	umount "$mnt"
fi
finish
