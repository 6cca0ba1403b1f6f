# Our signer against the rpmsign Debian ships ($SUITE's chroot, with
# rpm-sequoia): on packages their rpmbuild makes, v4 (trixie, sid) and v6
# (sid), `rpmsign --addsign --signverity` and `rpm-verity sign` followed by
# their `rpmsign --addsign` (the OpenPGP signature alone, gpg's clock fixed)
# give byte-identical entries for every regular file; on a package of
# regular files alone whose tags fit into the reserved space, the whole
# files are identical where that rpmsign takes its bytes from the reserved
# space (6.1.0), and differ in the reserved count alone where it does not
# (4.20.1, rpm #3768). An empty %ghost file and a %ghost directory, which
# it signs, and the shapes it dies on (a hardlink pair, a non-empty
# %ghost), listed as its crash, which our signer signs.
. "$(dirname "$0")/lib.sh"
shipped_scratch
key rsa2048

for f in $FORMATS; do
	d=$SCRATCH/v$f
	mkdir -p "$d"

	note "v$f: plain.spec (regular, empty and %config files, directories, a symlink)"
	p=$(shipped_build "$SPECS/plain.spec" "$d/built" "$f")
	cp "$p" "$d/up.rpm"
	cp "$p" "$d/ours.rpm"
	expect_ok "v$f: their rpmsign --addsign --signverity" rpmsign_verity "$d/up.rpm" "$KEY" "$CERT"
	expect_ok "v$f: rpm-verity sign" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" "$d/ours.rpm"
	expect_ok "v$f: their rpmsign --addsign on ours" gpg_sign "$d/ours.rpm"
	n=$(regular_entries_equal "$d/ours.rpm" "$d/up.rpm") ||
		fail "v$f: our entries differ from their rpmsign's"
	[ "$n" -ge 6 ] || fail "v$f: only $n regular files compared"
	ok "v$f: the entries of all $n regular files are byte-identical to their rpmsign's"
	check_signed "$d/ours.rpm" "$CERT" --key "$KEY"

	note "v$f: 3 regular files alone, whose tags fit into the reserved space"
	p=$(shipped_build "$SPECS/many.spec" "$d/built3" "$f" "nfiles 3" "only_files 1")
	cp "$p" "$d/up3.rpm"
	cp "$p" "$d/ours3.rpm"
	expect_ok "v$f: their rpmsign --addsign --signverity" rpmsign_verity "$d/up3.rpm" "$KEY" "$CERT"
	expect_ok "v$f: rpm-verity sign" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" "$d/ours3.rpm"
	expect_ok "v$f: their rpmsign --addsign on ours" gpg_sign "$d/ours3.rpm"
	same=$(sighdr same "$d/ours3.rpm" "$d/up3.rpm")
	case $RPM_VERSION in
	4.20.*)
		# Theirs keeps the reserved space whole and grows by the tags.
		read -r size1 _ count1 rest1 _ < <(sighdr info "$d/ours3.rpm")
		read -r size2 _ count2 rest2 _ < <(sighdr info "$d/up3.rpm")
		check_eq "v$f: ours and $RPM_VERSION's differ in the reserved count alone" \
			"$same" "reserved $count1 $count2"
		check_eq "v$f: $RPM_VERSION's rpmsign took nothing from the reserved space" \
			"$count2" "$(sighdr info "$p" | cut -d' ' -f3)"
		note "v$f: ours $size1 bytes (reserved $count1), theirs $size2 (reserved $count2)"
		;;
	*)
		check_eq "v$f: the whole file is byte-identical to their rpmsign's" "$same" identical
		;;
	esac

	note "v$f: an empty %ghost file and a %ghost directory, which their rpmsign signs"
	for shape in emptyghost ghostdir; do
		p=$(shipped_build "$SRC_TESTS/shipped/specs/shapes.spec" "$d/$shape" "$f" "shape $shape")
		cp "$p" "$d/up-$shape.rpm"
		cp "$p" "$d/ours-$shape.rpm"
		expect_ok "v$f $shape: their rpmsign --addsign --signverity" rpmsign_verity \
			"$d/up-$shape.rpm" "$KEY" "$CERT"
		expect_ok "v$f $shape: rpm-verity verify accepts their package" "$RPMVERITY" verify \
			--cert "$CERT" "$d/up-$shape.rpm"
		expect_ok "v$f $shape: rpm-verity sign" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" \
			"$d/ours-$shape.rpm"
		n=$(regular_entries_equal "$d/ours-$shape.rpm" "$d/up-$shape.rpm") ||
			fail "v$f $shape: our entries differ from their rpmsign's"
		check_eq "v$f $shape: the regular files' entries are byte-identical to theirs" "$n" 2
	done

	note "v$f: the shapes their rpmsign dies on, which ours signs"
	for shape in hardlink ghost; do
		p=$(shipped_build "$SRC_TESTS/shipped/specs/shapes.spec" "$d/$shape" "$f" "shape $shape")
		cp "$p" "$d/up-$shape.rpm"
		run rpmsign_verity "$d/up-$shape.rpm" "$KEY" "$CERT"
		# 139: killed by SIGSEGV (128 + 11), as the shell reports it.
		check_eq "v$f $shape: their rpmsign --signverity crashes (SIGSEGV; upstream's defect)" "$RC" 139
		cmp -s "$p" "$d/up-$shape.rpm" || fail "v$f $shape: their crashed rpmsign changed the package"
		cp "$p" "$d/ours-$shape.rpm"
		expect_ok "v$f $shape: rpm-verity sign" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" \
			"$d/ours-$shape.rpm"
		check_signed "$d/ours-$shape.rpm" "$CERT" --key "$KEY"
		expect_ok "v$f $shape: their rpmsign --addsign on ours" gpg_sign "$d/ours-$shape.rpm"
		expect_ok "v$f $shape: their rpm -K on ours" rpm_K "$d/ours-$shape.rpm"
		expect_stdout "signatures OK"
	done
done
finish "$TEST"
