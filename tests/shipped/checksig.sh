# What the rpm Debian ships ($SUITE's chroot, with rpm-sequoia) says of the
# packages we sign and inject, v4 and (sid) v6, on packages their rpmbuild
# makes with every kind of entry: their `rpm -K` and `rpmkeys --checksig`
# accept ours beside their OpenPGP signature, the split (Koji) flow's
# output, and its --sighdr-out header spliced back into the unsigned
# package; that header keeps the package's OpenPGP signature (Koji files a
# header without one as unsigned). And the other way: our verify and audit
# accept the entries their rpmsign writes for directories, symlinks and
# empty files (the empty file's signature).
. "$(dirname "$0")/lib.sh"
shipped_scratch
key rsa2048

# checksig WHAT PKG: their rpm -K and rpmkeys --checksig call PKG's digests
# and OpenPGP signature OK.
checksig() {
	expect_ok "$1: their rpm -K" rpm_K "$2"
	expect_stdout "digests signatures OK"
	expect_ok "$1: their rpmkeys --checksig" rpmkeys --dbpath "$SCRATCH/rpmdb" --checksig "$2"
	expect_stdout "digests signatures OK"
}

# openpgp PKG: PKG's OpenPGP signature(s) as rpm shows them (v4's RSAHEADER,
# and rpm 6's OPENPGP), empty when it has none.
openpgp_qf='%|RSAHEADER?{%{RSAHEADER:base64}}|'
rpm --querytags | grep -qx OPENPGP && openpgp_qf+='%|OPENPGP?{[%{OPENPGP}\n]}|'
openpgp() {
	qf "$1" "$openpgp_qf"
}

for f in $FORMATS; do
	d=$SCRATCH/v$f
	mkdir -p "$d/out" "$d/hdr" "$d/out-u" "$d/hdr-u"
	u=$(shipped_build "$SPECS/kinds.spec" "$d/built" "$f")

	note "v$f: ours over their OpenPGP signature, ours first and theirs after"
	cp "$u" "$d/pgp.rpm"
	expect_ok "v$f: their rpmsign --addsign" gpg_sign "$d/pgp.rpm"
	[ -n "$(openpgp "$d/pgp.rpm")" ] || fail "v$f: their rpmsign made no OpenPGP signature"
	cp "$d/pgp.rpm" "$d/signed-after.rpm"
	expect_ok "v$f: rpm-verity sign" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" "$d/signed-after.rpm"
	check_signed "$d/signed-after.rpm" "$CERT" --key "$KEY"
	checksig "v$f: sign after their OpenPGP" "$d/signed-after.rpm"
	cp "$u" "$d/signed-before.rpm"
	expect_ok "v$f: rpm-verity sign" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" "$d/signed-before.rpm"
	expect_ok "v$f: their rpmsign --addsign after ours" gpg_sign "$d/signed-before.rpm"
	checksig "v$f: their OpenPGP after sign" "$d/signed-before.rpm"
	check_eq "v$f: the same package either way" "$(sha "$d/signed-before.rpm")" "$(sha "$d/signed-after.rpm")"

	note "v$f: the split (Koji) flow on the OpenPGP-signed package"
	split_sign "$d/out" "$d/hdr" "$d/pgp.rpm"
	check "v$f: split flow output equals sign's" cmp "$d/out/pgp.rpm" "$d/signed-after.rpm"
	checksig "v$f: split flow output" "$d/out/pgp.rpm"
	check_eq "v$f: --sighdr-out's header keeps the package's OpenPGP signature" \
		"$(splice "$u" "$d/hdr/pgp.rpm.sighdr" "$d/spliced.rpm" && openpgp "$d/spliced.rpm")" \
		"$(openpgp "$d/pgp.rpm")"
	check "v$f: the unsigned package with that header spliced in equals sign's" \
		cmp "$d/spliced.rpm" "$d/signed-after.rpm"
	checksig "v$f: --sighdr-out header spliced back" "$d/spliced.rpm"

	note "v$f: digests of the unsigned build, inject into its OpenPGP-signed copy"
	mkdir -p "$d/out2"
	expect_ok "v$f: digests of the unsigned package" "$RPMVERITY" digests -o "$d/manifest" "$u"
	expect_ok "v$f: sign-digests" "$RPMVERITY" sign-digests --key "$KEY" --cert "$CERT" \
		-o "$d/sigs" "$d/manifest"
	expect_ok "v$f: inject into the OpenPGP-signed copy" "$RPMVERITY" inject --cert "$CERT" \
		-o "$d/out2" "$d/sigs" "$d/pgp.rpm"
	check "v$f: the same package as sign's" cmp "$d/out2/pgp.rpm" "$d/signed-after.rpm"

	note "v$f: the split flow on a package without OpenPGP signature"
	cp "$u" "$d/unsigned.rpm"
	split_sign "$d/out-u" "$d/hdr-u" "$d/unsigned.rpm"
	splice "$u" "$d/hdr-u/unsigned.rpm.sighdr" "$d/spliced-u.rpm"
	check_eq "v$f: its header carries no OpenPGP signature (Koji would file it as unsigned)" \
		"$(openpgp "$d/spliced-u.rpm")" ""
	expect_ok "v$f: their rpm -K --nosignature on it" rpm -K --nosignature "$d/spliced-u.rpm"
	expect_stdout "digests OK"
	check_signed "$d/spliced-u.rpm" "$CERT" --key "$KEY"

	note "v$f: our verify and audit on their rpmsign's entries for non-regular files"
	p=$(shipped_build "$SPECS/plain.spec" "$d/plain" "$f")
	expect_ok "v$f: their rpmsign --addsign --signverity" rpmsign_verity "$p" "$KEY" "$CERT"
	entries "$p" | paste -d' ' <(qf "$p" '[%{FILEMODES:perms} %{FILENAMES}\n]') - >"$d/plain.e"
	empty=$(awk '$2 == "/opt/plain/empty" { print $3 }' "$d/plain.e")
	[ -n "$empty" ] || fail "v$f: their rpmsign gave the empty file no entry"
	nonreg=$(awk -v e="$empty" '$1 !~ /^-/ && $3 == e' "$d/plain.e" | wc -l)
	[ "$nonreg" -ge 3 ] || fail "v$f: their rpmsign gave only $nonreg directories and symlinks the empty file's entry"
	ok "v$f: their rpmsign gave $nonreg directories and symlinks the empty file's entry"
	expect_ok "v$f: rpm-verity verify accepts their package" "$RPMVERITY" verify --cert "$CERT" "$p"
	expect_ok "v$f: rpm-verity verify --list on it" "$RPMVERITY" verify --list "$p"
	root=$d/root
	# The host's rpm makes the rpmdb our audit reads (our build's librpm).
	/usr/bin/rpm --root "$root" --dbpath /var/lib/rpm --initdb &&
		/usr/bin/rpm --root "$root" --dbpath /var/lib/rpm --justdb --nodeps --nosignature \
			"${RPM_INSTALL_OPTS[@]}" -i "$p" ||
		fail "v$f: the host's rpm --justdb cannot record their package"
	(cd "$root" && rpm2cpio "$p" | cpio -idm --quiet) || fail "v$f: cannot unpack their package"
	run "$RPMVERITY" audit --root "$root" --dbpath /var/lib/rpm --cert "$CERT" --verbose rvt-plain
	grep -v '^audit:' "$OUT" | grep -v 'verity-off' | grep -vi 'skip' >"$SCRATCH/other" || true
	check_eq "v$f: audit finds nothing wrong but verity off (the host cannot enable it)" \
		"$(cat "$SCRATCH/other")" ""
	grep -q 'verity-off *\/opt\/plain\/dir\/file-1$' "$OUT" ||
		{ _show audit; fail "v$f: audit did not check the regular files"; }
	sed 's/^/   /' "$OUT"
done
finish "$TEST"
