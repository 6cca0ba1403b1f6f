# rpm-verity audit on the host, where verity cannot be enabled: an rpmdb made
# with rpm --justdb and the package's files copied under a temporary root.
# Every problem that needs no verity: missing, verity off, untrusted; the
# entries audit skips (%config, %ghost, directories, symlinks, unsigned
# packages); --json; exit statuses; bad --root, --dbpath, --cert; and a
# symlink pointing out of the root, which must not be followed (with
# openat2's RESOLVE_IN_ROOT and with the component walk used without it).
. "$(dirname "$0")/lib.sh"
scratch
key rsa2048
ROOT=$SCRATCH/root
DB=/var/lib/rpm

p=$(copy_pkg kinds "$SCRATCH/pkgs")
expect_ok "sign kinds" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" "$p"
plain=$(copy_pkg plain "$SCRATCH/pkgs")
rpm --root "$ROOT" --dbpath $DB --initdb || fail "rpm --initdb"
rpm --root "$ROOT" --dbpath $DB --justdb --nodeps "${RPM_INSTALL_OPTS[@]}" -i "$p" "$plain" ||
	fail "rpm --justdb -i"
(cd "$ROOT" && rpm2cpio "$p" | cpio -idm --quiet) || fail "unpack kinds"
audit() { "$RPMVERITY" audit --root "$ROOT" --dbpath $DB "$@"; }

# The files audit must check: those the plugin protects, as the rule says
# (verify --list), executable %config files among them.
expect_ok "verify --list" "$RPMVERITY" verify --list "$p"
awk -F'\t' '$3 == "protected" { print $1 }' "$OUT" | sort >"$SCRATCH/want"
grep -qx /etc/rvt-hook "$SCRATCH/want" || fail "the executable %config file is not in the list"
n=$(wc -l <"$SCRATCH/want")
[ "$n" -ge 10 ] || fail "kinds has only $n checkable files"

note "every file there, none with verity: one verity-off line each"
run audit --cert "$CERT" rvt-kinds
[ "$RC" = 1 ] || { _show audit; fail "exit status $RC, want 1"; }
grep -v '^audit:' "$OUT" | sort >"$SCRATCH/got"
sed 's/^/verity-off        /' "$SCRATCH/want" >"$SCRATCH/want-lines"
diff "$SCRATCH/want-lines" "$SCRATCH/got" || fail "verity-off lines differ (above)"
expect_stdout "^audit: 1 package, $n files checked, $n problems: $n verity-off$"
[ "$(wc -l <"$OUT")" = $((n + 1)) ] || fail "more output than problems and summary"

note "--verbose names what it skips and why"
run audit --cert "$CERT" --verbose rvt-kinds
for s in "/etc/rvt.conf (rvt-kinds-1-1.noarch: %config)" \
	"/opt/rvt/ghost.log (rvt-kinds-1-1.noarch: %ghost)" \
	"/opt/rvt/emptydir (rvt-kinds-1-1.noarch: directory)" \
	"/opt/rvt/symlink (rvt-kinds-1-1.noarch: symlink)"; do
	grep -qxF "skipped           $s" "$OUT" || { _show audit -v; fail "no skip line for $s"; }
done

note "a file deleted: missing"
rm "$ROOT/opt/rvt/sizes/size-4096"
run audit --cert "$CERT" rvt-kinds
[ "$RC" = 1 ] || fail "exit status $RC, want 1"
expect_stdout "^missing           /opt/rvt/sizes/size-4096$"
expect_stdout "^audit: 1 package, $n files checked, $n problems: 1 missing, $((n - 1)) verity-off$"

note "another key's certificate: every file untrusted too"
run audit --cert "$KEYS/p256/cert.pem" rvt-kinds
[ "$RC" = 1 ] || fail "exit status $RC, want 1"
[ "$(grep -c '^untrusted ' "$OUT")" = $((n - 1)) ] || { _show audit; fail "want $((n - 1)) untrusted lines"; }
expect_stdout "^untrusted         /opt/rvt/sub/deeper/tool$"
run audit --cert "$KEYS/p256/cert.pem" --cert "$CERT" rvt-kinds
grep -q '^untrusted' "$OUT" && fail "untrusted with the signer's certificate among --cert"
note "%_fsverity_certs is the default"
printf '%%_fsverity_certs %s\n' "$KEYS/p256/cert.pem" >"$SCRATCH/macros"
run env HOME="$SCRATCH" bash -c "cp '$SCRATCH/macros' '$SCRATCH/.rpmmacros' && '$RPMVERITY' audit --root '$ROOT' --dbpath $DB rvt-kinds"
[ "$(grep -c '^untrusted ' "$OUT")" = $((n - 1)) ] || { _show audit; fail "%_fsverity_certs not used"; }

note "--json: one object per problem, the summary last"
run audit --cert "$CERT" --json rvt-kinds
[ "$RC" = 1 ] || fail "exit status $RC, want 1"
python3 - "$OUT" "$n" <<'PY' || fail "--json output wrong"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
n = int(sys.argv[2])
objs = [json.loads(l) for l in lines]
probs, summary = objs[:-1], objs[-1]["summary"]
assert len(probs) == n, (len(probs), n)
assert all(o["package"] == "rvt-kinds-1-1.noarch" for o in probs)
kinds = sorted(o["problem"] for o in probs)
assert kinds == ["missing"] + ["verity-off"] * (n - 1), kinds
assert {"problem": "missing", "path": "/opt/rvt/sizes/size-4096",
        "package": "rvt-kinds-1-1.noarch"} in probs
assert summary["checked"] == n and summary["problems"] == n, summary
assert summary["missing"] == 1 and summary["verity-off"] == n - 1, summary
PY

note "a package without fs-verity signatures: nothing to check, exit 0"
run audit --cert "$CERT" rvt-plain
[ "$RC" = 0 ] || { _show audit; fail "exit status $RC for an unsigned package"; }
expect_stdout "^audit: 1 package, 0 files checked, no problems$"

note "symlinks out of the root are not followed"
out=$SCRATCH/outside
mkdir -p "$out/opt/rvt/sub/deeper"
cp "$ROOT/opt/rvt/sub/deeper/tool" "$ROOT/opt/rvt/sub/c" "$out/"
mv "$ROOT/opt/rvt/sub" "$SCRATCH/sub.saved"
ln -s "$out" "$ROOT/opt/rvt/sub"		# absolute: means $ROOT$out
mv "$ROOT/opt/rvt/links" "$SCRATCH/links.saved"
ln -s "../../../../../../../../../..$out" "$ROOT/opt/rvt/links"	# .. past the root
rm "$ROOT/opt/rvt/sizes/size-1"
ln -s "$out/tool" "$ROOT/opt/rvt/sizes/size-1"	# the file itself
mkdir -p "$ROOT$out"		# inside the root, the target dir exists but is empty
for walk in 0 1; do
	run env RPMVERITY_AUDIT_WALK=$walk "$RPMVERITY" audit --root "$ROOT" --dbpath $DB \
		--cert "$CERT" --verbose rvt-kinds
	[ "$RC" = 1 ] || { _show audit; fail "walk=$walk: exit status $RC"; }
	for f in sub/c sub/deeper/tool links/a links/b; do
		expect_stdout "^missing           /opt/rvt/$f$"
	done
	expect_stdout "^verity-off        /opt/rvt/sizes/size-1 \(rvt-kinds-1-1.noarch: a symlink \(not followed\)\)$"
	expect_stdout "^verity-off        /opt/rvt/sizes/size-0$"
done
# The same tree through a symlink that stays inside: followed, found.
rm "$ROOT/opt/rvt/sub"
mkdir -p "$ROOT/elsewhere"
mv "$SCRATCH/sub.saved" "$ROOT/elsewhere/sub"
ln -s /elsewhere/sub "$ROOT/opt/rvt/sub"
for walk in 0 1; do
	run env RPMVERITY_AUDIT_WALK=$walk "$RPMVERITY" audit --root "$ROOT" --dbpath $DB \
		--cert "$CERT" rvt-kinds
	expect_stdout "^verity-off        /opt/rvt/sub/deeper/tool$"
	grep -q '^missing .*/opt/rvt/sub/' "$OUT" && fail "walk=$walk: a symlink inside the root was not followed"
done

note "IMA signatures in the header (tag 5090): security.ima compared byte for byte"
ima=$SCRATCH/pkgs/ima/kinds.rpm
mkdir -p "${ima%/*}"
# A made-up value per content (hardlinks share it, as real IMA signatures do).
made_up_ima "$p" "$SCRATCH/want" >"$SCRATCH/ima.txt"
expect_ok "add IMA signatures" "$VERITY_TAG_EDIT" "$p" "$ima" --ima "$SCRATCH/ima.txt"
R2=$SCRATCH/root2
rpm --root "$R2" --dbpath $DB --initdb || fail "rpm --initdb"
rpm --root "$R2" --dbpath $DB --justdb --nodeps "${RPM_INSTALL_OPTS[@]}" -i "$ima" || fail "rpm --justdb -i (IMA)"
(cd "$R2" && rpm2cpio "$p" | cpio -idm --quiet) || fail "unpack kinds"
[ -n "$(rpm --root "$R2" --dbpath $DB -q --qf '[%{FILESIGNATURES}]' rvt-kinds)" ] ||
	fail "rpm did not keep the IMA signatures in the rpmdb"
# Right on every file but three: one wrong, one with none, one with a byte more.
paste -d' ' <(qf "$p" '[%{FILENAMES}\n]') "$SCRATCH/ima.txt" | while read -r f v; do
	[ -n "$v" ] && setfattr -n security.ima -v "0x$v" "$R2$f"
done
setfattr -n security.ima -v 0x0603040a0b0c0d00 "$R2/opt/rvt/sizes/size-1"
setfattr -x security.ima "$R2/opt/rvt/sizes/size-4097"
v=$(paste -d' ' <(qf "$p" '[%{FILENAMES}\n]') "$SCRATCH/ima.txt" | awk '$1 == "/opt/rvt/sub/deeper/tool" { print $2 }')
[ -n "$v" ] || fail "no IMA value for /opt/rvt/sub/deeper/tool"
setfattr -n security.ima -v "0x${v}00" "$R2/opt/rvt/sub/deeper/tool" || fail "setfattr"
run "$RPMVERITY" audit --root "$R2" --dbpath $DB --cert "$CERT"
[ "$RC" = 1 ] || fail "exit status $RC, want 1"
[ "$(grep -c '^ima-mismatch ' "$OUT")" = 3 ] || { _show audit; fail "want 3 ima-mismatch lines"; }
for f in sizes/size-1 sizes/size-4097 sub/deeper/tool; do
	expect_stdout "^ima-mismatch      /opt/rvt/$f$"
done
expect_stdout "^audit: 1 package, $n files checked, $((n + 3)) problems: $n verity-off, 3 ima-mismatch$"

note "exit statuses and errors"
run audit --cert "$CERT" no-such-package
[ "$RC" = 1 ] || fail "a package not installed: exit $RC, want 1"
grep -q "package no-such-package is not installed" "$ERR" || fail "no message for a package not installed"
expect_fail "a root that does not exist" "$SCRATCH/nope.*cannot use as the root" \
	"$RPMVERITY" audit --root "$SCRATCH/nope" --cert "$CERT"
[ "$RC" = 2 ] || fail "bad root: exit $RC, want 2"
expect_fail "a root that is a file" "cannot open the root" \
	"$RPMVERITY" audit --root "$p" --cert "$CERT"
expect_fail "no rpmdb at --dbpath" "no rpmdb there" \
	"$RPMVERITY" audit --root "$ROOT" --dbpath /nope --cert "$CERT"
[ ! -e "$ROOT/nope" ] || fail "audit created $ROOT/nope"
mkdir -p "$SCRATCH/empty"
rpm --root "$SCRATCH/empty" --dbpath $DB --initdb
expect_fail "an rpmdb with no package" "no package installed" \
	"$RPMVERITY" audit --root "$SCRATCH/empty" --dbpath $DB --cert "$CERT"
expect_fail "a certificate that is not one" "not a PEM or DER" \
	"$RPMVERITY" audit --root "$ROOT" --dbpath $DB --cert "$p"
expect_fail "no certificate at all" "no certificate" \
	env HOME="$SCRATCH/empty" "$RPMVERITY" audit --root "$ROOT" --dbpath $DB
expect_fail "an unknown option" "unknown option" \
	"$RPMVERITY" audit --frobnicate
[ "$RC" = 2 ] || fail "usage error: exit $RC, want 2"
finish "$TEST"
