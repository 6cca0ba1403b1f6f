#!/bin/bash
# rpm-verity audit --unowned in the guest (vm/run): vm-demo-1 installed with
# the plugin onto a fresh FS (btrfs or ext4), then what an attacker with
# root would place: a protected binary hard-linked to an unowned path, one
# moved, a protected file's content copied and enabled by hand without a
# signature, a plain file with fs-verity, a file with a hand-made
# security.ima, and an unsigned plain file. Each signed one must be named
# with its package file, the plain one not reported, the exit status 1,
# and the summary must count every regular file scanned. A second
# filesystem mounted inside the root is walked only when given.
# usage: audit-unowned.sh btrfs|ext4
. "$(dirname "$0")/lib.sh"
fs=${1:?usage: audit-unowned.sh btrfs|ext4}
need_build
AUDIT=$BUILD/signer/rpm-verity
mnt=/tmp/unowned-$fs
mkfs_mount "$fs" "$SCRATCH_DEV" "$mnt"
new_root "$mnt"
NEVRA=vm-demo-1-1.x86_64

# unowned_is STATUS [PATH...] -- LINE...: audit --unowned PATH... exits
# STATUS and prints exactly the LINEs (any order), then one summary line.
unowned_is() {
	local want_rc=$1 rc=0 paths=(); shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do paths+=("$1"); shift; done
	shift
	ASAN_OPTIONS=detect_leaks=0 "$AUDIT" audit --root "$mnt" --dbpath /var/lib/rpm \
		--cert "$CERT" --unowned ${paths[@]+"${paths[@]}"} >/tmp/unowned.out 2>/tmp/unowned.err || rc=$?
	sed 's/^/  audit: /' /tmp/unowned.out /tmp/unowned.err
	local want got
	want=$(printf '%s\n' "$@" | sed '/^$/d' | sort)
	got=$(grep -v '^audit: ' /tmp/unowned.out | sort)
	[ "$rc" = "$want_rc" ] || { echo "  exit status $rc, want $want_rc"; return 1; }
	[ "$got" = "$want" ] || { echo "  lines differ:"; diff <(echo "$want") <(echo "$got") | sed 's/^/  /'; return 1; }
	[ "$(grep -c '^audit: ' /tmp/unowned.out)" = 1 ] || { echo "  no summary line"; return 1; }
	! grep -qE 'Sanitizer|runtime error' /tmp/unowned.err
}
line() { printf '%-17s %s' unowned "$1"; }
signed_of() { printf '%s (signed content of %s %s)' "$(line "$1")" "$NEVRA" "$2"; }
scanned() { find "$@" -xdev -type f | wc -l; }
summary() { tail -1 /tmp/unowned.out; }

echo "# install vm-demo-1 with the plugin under enforce"
check "rpm -i" rpmv enforce -i "$PKGS/vm-demo-1.rpm"
check "a clean system: exit 0, the summary alone" unowned_is 0 --
check_eq "the summary" "$(summary)" "audit: 1 package, $(scanned "$mnt") files scanned, no problems"

echo "# what an attacker places"
mkdir -p "$mnt/usr/local/bin" "$mnt/srv"
ln "$mnt/usr/bin/vm-demo-hello" "$mnt/usr/local/bin/hello"
mv "$mnt/usr/bin/vm-demo-true" "$mnt/srv/true"
cp "$mnt/usr/share/vm-demo/data-2" "$mnt/srv/copied"
fsverity enable "$mnt/srv/copied" || bail "fsverity enable (no signature)"
echo "not from any package" >"$mnt/srv/own-verity"
fsverity enable "$mnt/srv/own-verity" || bail "fsverity enable"
echo "#!/bin/sh" >"$mnt/srv/handmade"
setfattr -n security.ima -v 0x060304deadbeef0004aabbccdd "$mnt/srv/handmade" ||
	bail "setfattr security.ima"
echo "plain" >"$mnt/srv/plain"
cp "$mnt/usr/share/vm-demo/data-3" "$mnt/srv/plain-copy"	# a copy without verity
check_eq "the moved binary still has verity" "$(has_verity "$mnt/srv/true"; echo $?)" 0
want=("$(signed_of /usr/local/bin/hello /usr/bin/vm-demo-hello)"
      "$(signed_of /srv/true /usr/bin/vm-demo-true)"
      "$(signed_of /srv/copied /usr/share/vm-demo/data-2)"
      "$(line /srv/own-verity)"
      "$(line /srv/handmade)")
check "each placed file reported, signed ones with their package file; exit 1" \
	unowned_is 1 -- "${want[@]}"
check_eq "the summary counts the files scanned" "$(summary)" \
	"audit: 1 package, $(scanned "$mnt") files scanned, 5 problems: 5 unowned"

echo "# the same with --json"
check "--json: the same files, packages, summary" bash -c "
	ASAN_OPTIONS=detect_leaks=0 $AUDIT audit --root $mnt --dbpath /var/lib/rpm --cert $CERT --unowned --json >/tmp/unowned.json; [ \$? = 1 ] &&
	python3 - /tmp/unowned.json $(scanned "$mnt") <<'PY'
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
got = {o['path']: (o['problem'], o['package'], o.get('file')) for o in objs[:-1]}
n = 'vm-demo-1-1.x86_64'
want = {'/usr/local/bin/hello': ('unowned', n, '/usr/bin/vm-demo-hello'),
        '/srv/true': ('unowned', n, '/usr/bin/vm-demo-true'),
        '/srv/copied': ('unowned', n, '/usr/share/vm-demo/data-2'),
        '/srv/own-verity': ('unowned', None, None),
        '/srv/handmade': ('unowned', None, None)}
assert got == want, got
assert objs[-1]['summary'] == {'packages': 1, 'scanned': int(sys.argv[2]), 'problems': 5, 'unowned': 5}, objs[-1]
PY"

echo "# a second filesystem inside the root: walked only when given"
mkdir -p "$mnt/mnt/other"
mkfs_mount "$fs" "$SCRATCH_DEV2" "$mnt/mnt/other"
cp "$mnt/usr/share/vm-demo/data-3" "$mnt/mnt/other/data-3"
fsverity enable "$mnt/mnt/other/data-3" || bail "fsverity enable on the second fs"
check "not entered by default" unowned_is 1 -- "${want[@]}"
check "given: walked, the copy named" unowned_is 1 /mnt/other -- \
	"$(signed_of /mnt/other/data-3 /usr/share/vm-demo/data-3)"
check_eq "its summary" "$(summary)" "audit: 1 package, 1 file scanned, 1 problem: 1 unowned"
umount "$mnt/mnt/other"
umount "$mnt"
finish
