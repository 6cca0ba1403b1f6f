# rpm-verity audit --unowned on the host, where verity cannot be enabled:
# the walking rules and the output with security.ima alone. A root made as
# audit.sh makes it (rpm --justdb, the files copied), with IMA values in
# the rpmdb (tag 5090) and on the installed files. Then: a clean root
# reports nothing and counts every regular file scanned; a hard link and a
# moved copy of a file carrying its package's IMA value are named with
# that package file; a hand-made IMA signature is reported without one; an
# IMA hash (not a signature) and a plain file are not reported; a symlink
# out of the root is never followed, as a start path or inside the tree;
# another filesystem is entered only when given; --json; exit statuses.
# Every scan runs in the one process the user started, whether its options
# name the rpmdb and the certificates or rpm's configuration does, with
# the same answer; a certificate that is none is refused at the start; a
# relocated package's header, which the SQLite reader leaves to librpm,
# still owns its files. A header librpm cannot read fails the audit.
. "$(dirname "$0")/lib.sh"
scratch
key rsa2048
ROOT=$SCRATCH/root
DB=/var/lib/rpm
NEVRA=rvt-kinds-1-1.noarch

p=$(copy_pkg kinds "$SCRATCH/pkgs")
expect_ok "sign kinds" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" "$p"
# A made-up IMA value per content (made_up_ima), as audit.sh adds.
ima=$SCRATCH/pkgs/ima/kinds.rpm
mkdir -p "${ima%/*}"
expect_ok "verify --list" "$RPMVERITY" verify --list "$p"
awk -F'\t' '$3 == "protected" { print $1 }' "$OUT" | sort >"$SCRATCH/want"
made_up_ima "$p" "$SCRATCH/want" >"$SCRATCH/ima.txt"
expect_ok "add IMA signatures" "$VERITY_TAG_EDIT" "$p" "$ima" --ima "$SCRATCH/ima.txt"
rpm --root "$ROOT" --dbpath $DB --initdb || fail "rpm --initdb"
rpm --root "$ROOT" --dbpath $DB --justdb --nodeps "${RPM_INSTALL_OPTS[@]}" -i "$ima" ||
	fail "rpm --justdb -i"
(cd "$ROOT" && rpm2cpio "$p" | cpio -idm --quiet) || fail "unpack kinds"
paste -d' ' <(qf "$p" '[%{FILENAMES}\n]') "$SCRATCH/ima.txt" | while read -r f v; do
	[ -n "$v" ] && setfattr -n security.ima -v "0x$v" "$ROOT$f"
done
tool_ima=$(getfattr --absolute-names -e hex -n security.ima "$ROOT/opt/rvt/sub/deeper/tool" | sed -n "s/^security.ima=0x//p")
[ -n "$tool_ima" ] || fail "no security.ima on /opt/rvt/sub/deeper/tool"

unowned() { "$RPMVERITY" audit --root "$ROOT" --dbpath $DB --cert "$CERT" --unowned "$@"; }
# files_in DIR...: the regular files the walk must count.
files_in() { find "$@" -xdev -type f | wc -l; }
# lines_are LINE...: the last run printed exactly these problem lines.
lines_are() {
	printf '%s\n' "$@" | sed '/^$/d' | sort >"$SCRATCH/want-lines"
	grep -v '^audit:' "$OUT" | sort >"$SCRATCH/got-lines"
	diff "$SCRATCH/want-lines" "$SCRATCH/got-lines" || { _show audit --unowned; fail "problem lines differ (above)"; }
}
line() { printf '%-17s %s' unowned "$1"; }

note "a clean root: nothing unowned, every regular file counted"
run unowned
[ "$RC" = 0 ] || { _show audit --unowned; fail "exit status $RC, want 0"; }
lines_are
expect_stdout "^audit: 1 package, $(files_in "$ROOT") files scanned, no problems$"

note "one process: options on the command line or in rpm's configuration, the same answer"
# programs CMD...: the programs CMD ran (successful execs, one a line),
# its output in $OUT and $ERR.
programs() {
	strace -f -qq -e trace=execve -o "$SCRATCH/trace" "$@" >"$OUT" 2>"$ERR" || true
	sed -n 's/.*execve("\([^"]*\)".*= 0$/\1/p' "$SCRATCH/trace"
}
printf '%%_dbpath %s\n%%_fsverity_certs %s\n' $DB "$CERT" >"$SCRATCH/.rpmmacros"
for args in "" /opt --json --verbose; do
	ran=$(programs "$RPMVERITY" audit --root "$ROOT" --dbpath $DB --cert "$CERT" --unowned $args)
	[ "$ran" = "$RPMVERITY" ] || { cat "$SCRATCH/trace" >&2; fail "clean scan ($args): ran $ran, want $RPMVERITY alone"; }
	[ -s "$OUT" ] || fail "clean scan ($args): nothing printed"
	cp "$OUT" "$SCRATCH/given"
	ran=$(programs env HOME="$SCRATCH" "$RPMVERITY" audit --root "$ROOT" --unowned $args)
	[ "$(echo "$ran" | tail -n +2)" = "$RPMVERITY" ] ||
		{ cat "$SCRATCH/trace" >&2; fail "configured scan ($args): ran $ran, want env, then $RPMVERITY alone"; }
	diff "$SCRATCH/given" "$OUT" || fail "clean scan ($args): options given and configured differ (above)"
done
grep -q "^audit: 1 package, $(files_in "$ROOT") files scanned, no problems$" "$OUT" ||
	{ cat "$OUT" "$ERR" >&2; fail "configured scan: wrong answer"; }
rm "$SCRATCH/.rpmmacros"

note "a hard link and a moved copy of a signed file, a hand-made signature, a hash, a plain file"
mkdir -p "$ROOT/usr/local/bin" "$ROOT/home/x"
ln "$ROOT/opt/rvt/sub/deeper/tool" "$ROOT/usr/local/bin/linked"
cp -a "$ROOT/opt/rvt/sub/deeper/tool" "$ROOT/home/x/moved"	# cp -a keeps security.ima
setfattr -n security.ima -v "0x$tool_ima" "$ROOT/home/x/moved"
echo hand >"$ROOT/home/x/handmade"
setfattr -n security.ima -v 0x0603040102030400020a0b "$ROOT/home/x/handmade"
echo hash >"$ROOT/home/x/hashed"
setfattr -n security.ima -v 0x0404aabbccdd "$ROOT/home/x/hashed"	# IMA_XATTR_DIGEST_NG
echo plain >"$ROOT/home/x/plain"
want=("$(line /usr/local/bin/linked) (IMA signature of $NEVRA /opt/rvt/sub/deeper/tool)"
      "$(line /home/x/moved) (IMA signature of $NEVRA /opt/rvt/sub/deeper/tool)"
      "$(line /home/x/handmade)")
run unowned
[ "$RC" = 1 ] || { _show audit --unowned; fail "exit status $RC, want 1"; }
lines_are "${want[@]}"
expect_stdout "^audit: 1 package, $(files_in "$ROOT") files scanned, 3 problems: 3 unowned$"
[ -s "$ERR" ] && { _show audit --unowned; fail "something on stderr"; }

note "--verbose says what each carries"
run unowned --verbose
expect_stdout "^unowned +/home/x/handmade \(an IMA signature, content no installed package signed\)$"

note "PATH arguments: only those trees, as under the root"
run unowned /home usr/local/
[ "$RC" = 1 ] || fail "exit status $RC, want 1"
lines_are "${want[@]}"
expect_stdout "^audit: 1 package, $(files_in "$ROOT/home" "$ROOT/usr/local") files scanned, 3 problems: 3 unowned$"
run unowned /opt
[ "$RC" = 0 ] || { _show audit --unowned /opt; fail "exit status $RC, want 0"; }
expect_stdout "^audit: 1 package, $(files_in "$ROOT/opt") files scanned, no problems$"

note "--json: one object per problem, the summary with the files scanned"
run unowned --json
[ "$RC" = 1 ] || fail "exit status $RC, want 1"
python3 - "$OUT" "$(files_in "$ROOT")" "$NEVRA" <<'PY' || { _show audit --json; fail "--json output wrong"; }
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1]).read().splitlines()]
probs, summary = objs[:-1], objs[-1]["summary"]
by = {o["path"]: o for o in probs}
assert sorted(by) == ["/home/x/handmade", "/home/x/moved", "/usr/local/bin/linked"], by
for p in ("/home/x/moved", "/usr/local/bin/linked"):
    o = by[p]
    assert o["problem"] == "unowned" and o["package"] == sys.argv[3], o
    assert o["file"] == "/opt/rvt/sub/deeper/tool" and o["match"] == "IMA signature of", o
h = by["/home/x/handmade"]
assert h["package"] is None and "file" not in h and "IMA signature" in h["detail"], h
assert summary == {"packages": 1, "scanned": int(sys.argv[2]), "problems": 3, "unowned": 3}, summary
PY

note "symlinks out of the root are not followed"
out=$SCRATCH/outside
mkdir -p "$out/d"
cp -a "$ROOT/home/x/handmade" "$out/d/escaped"
setfattr -n security.ima -v 0x0603040102030400020a0b "$out/d/escaped"
ln -s "$out/d" "$ROOT/home/x/abs-link"			# absolute: means $ROOT$out/d
ln -s "../../../../../../../../..$out/d" "$ROOT/home/x/dotdot-link"
ln -s "$out/d/escaped" "$ROOT/home/x/file-link"
for start in "" /home/x/abs-link /home/x/dotdot-link; do
	run unowned $start
	grep -q escaped "$OUT" && { _show audit --unowned $start; fail "followed a symlink out of the root ($start)"; }
done
run unowned /home/x/abs-link
[ "$RC" = 2 ] || { _show audit --unowned; fail "a start path resolving to nothing under the root: exit $RC, want 2"; }
grep -q "/home/x/abs-link: cannot walk" "$ERR" || { _show audit --unowned; fail "no message for the start path"; }
mkdir -p "$ROOT$out/d"					# now it resolves, inside the root
run unowned /home/x/abs-link
[ "$RC" = 0 ] || { _show audit --unowned /home/x/abs-link; fail "exit status $RC, want 0"; }
expect_stdout "^audit: 1 package, 0 files scanned, no problems$"
rm -rf "$ROOT/home/x/"*-link "${ROOT:?}$SCRATCH"

note "another filesystem: entered only when given"
mnt=$ROOT/home/x/mnt
mkdir -p "$mnt"
if mount -t tmpfs rvt-unowned "$mnt" 2>/dev/null; then
	at_exit "umount '$mnt'"
	echo other >"$mnt/signed"
	setfattr -n security.ima -v 0x0603040102030400020a0b "$mnt/signed"
	run unowned
	grep -q "/home/x/mnt" "$OUT" && { _show audit --unowned; fail "walked onto another filesystem"; }
	lines_are "${want[@]}"
	run unowned /home
	grep -q "/home/x/mnt" "$OUT" && { _show audit --unowned /home; fail "walked onto another filesystem from /home"; }
	run unowned /home/x/mnt
	[ "$RC" = 1 ] || { _show audit --unowned /home/x/mnt; fail "exit status $RC, want 1"; }
	lines_are "$(line /home/x/mnt/signed)"
	expect_stdout "^audit: 1 package, 1 file scanned, 1 problem: 1 unowned$"
else
	note "(cannot mount a tmpfs here: the other-filesystem case is left to the VM test)"
fi

note "exit statuses"
expect_fail "an unknown option" "unknown option" unowned --frobnicate
[ "$RC" = 2 ] || fail "usage error: exit $RC, want 2"
expect_fail "no certificate" "no certificate" \
	env HOME="$SCRATCH" "$RPMVERITY" audit --root "$ROOT" --dbpath $DB --unowned
[ "$RC" = 2 ] || fail "no certificate: exit $RC, want 2"
# The certificates are parsed only when a file is to be named; a file that
# The certificates are loaded at the start, as for the audit of packages:
# a file that is none is refused, naming it, before any walk.
echo "not a certificate" >"$SCRATCH/notcert.pem"
expect_fail "a --cert that is not a certificate" "notcert.pem: not a PEM or DER X.509 certificate" \
	"$RPMVERITY" audit --root "$ROOT" --dbpath $DB --cert "$SCRATCH/notcert.pem" --unowned
[ "$RC" = 2 ] || fail "not a certificate: exit $RC, want 2"
expect_fail "a --cert that cannot be read" "missing.pem: cannot read certificate" \
	"$RPMVERITY" audit --root "$ROOT" --dbpath $DB --cert "$SCRATCH/missing.pem" --unowned

note "a relocated package: rpm lists its names twice, and rpm-verity leaves it to librpm"
reloc=$(build_rpm "$SPECS/reloc.spec" "$SCRATCH/reloc" w0.ufdio)
rpm --root "$ROOT" --dbpath $DB --justdb --nodeps "${RPM_INSTALL_OPTS[@]}" \
	--relocate /opt/rvt-reloc=/srv/reloc -i "$reloc" || fail "rpm --relocate -i"
mkdir -p "$ROOT/srv/reloc/bin"
echo relocated >"$ROOT/srv/reloc/bin/tool"
setfattr -n security.ima -v 0x0603040102030400020a0b "$ROOT/srv/reloc/bin/tool"
run unowned /srv
expect_stdout "^audit: 2 packages, 1 file scanned, no problems$"
[ "$RC" = 0 ] || fail "relocated: exit $RC, want 0 (its file, at the path rpm installed it, is owned)"

note "a header librpm cannot read: the audit fails, as the package is left out"
python3 - "$ROOT$DB/rpmdb.sqlite" <<'PY' || fail "cannot damage the rpmdb"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("UPDATE Packages SET blob = blob || x'00' WHERE hnum = (SELECT max(hnum) FROM Packages)")
db.commit()
PY
for audit in unowned "$RPMVERITY audit --root $ROOT --dbpath $DB --cert $CERT"; do
	run $audit
	[ "$RC" = 2 ] || { _show $audit; fail "damaged header: exit $RC, want 2"; }
	grep -q "rpmdb could not be read whole" "$ERR" || { _show $audit; fail "damaged header: not said"; }
done
finish "$TEST"
