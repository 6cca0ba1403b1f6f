# Signing fits our tags into the signature header's reserved space, as
# rpmsign (4.18, 6.x) does: the reserved tag (1008 RESERVEDSPACE; 999
# RESERVED in v6 packages) shrinks by the bytes the new tags take, if at
# least one byte is left, so the file keeps its size and everything after
# the signature header keeps its bytes. Tags that do not fit leave the
# reserved tag whole and the file grows. strip gives the space back, as rpm
# 6's rpmsign --delfilesign does. Runs for each package format the rpm
# under test writes (v4; with rpm 6, v4 and v6), on two packages of
# many.spec's regular files only: 3 files (fits) and 20 (does not).
#
# Against upstream rpmsign, byte for byte where the bytes can be the same:
# - Debian's rpm 4.18 (rpmsign can sign there): rpmsign's --delsign does
#   not give the space of the OpenPGP signature back (4.18 resizes the
#   reserved tag only when tags are added; the file shrinks instead). So
#   for the package that fits, "rpmsign --addsign --signverity, then
#   --delsign" differs from ours in the reserved count and the file size,
#   both by exactly what the OpenPGP entry took; the rest is compared
#   byte for byte. What is byte-identical there: our package after
#   rpmsign --addsign (OpenPGP only) against rpmsign --addsign
#   --signverity, with gpg's clock fixed (GPG_TIME) so the two OpenPGP
#   signatures are the same bytes. For the package that does not fit,
#   ours equals --addsign --signverity then --delsign.
# - rpm 6 (needs no OpenPGP to delete): our strip equals rpmsign
#   --delfilesign. rpm 4.18 and 4.20's --delfilesign give nothing back
#   (the file shrinks): compared as above, all but the reserved count.
. "$(dirname "$0")/lib.sh"
scratch
key rsa2048
GPG_TIME=20370101T000000

# digests_ok PKG: rpm -K checks every digest of PKG and calls them OK.
digests_ok() {
	expect_ok "rpm -K of $1" rpm -K --nosignature "$1"
	grep -q 'digests OK' "$OUT" || { _show rpm -K "$1"; fail "rpm -K: digests of $1 not OK"; }
}

sign_ours() {
	expect_ok "sign $1" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" "$1"
}

pad() {
	echo $((($1 + 7) & ~7))
}

rpmver=$(rpm --version | sed 's/.* //')
formats=4
[ -z "$(rpm --eval '%{?_rpmformat}')" ] || formats="4 6"
openpgp=0
has_rpm_openpgp && openpgp=1

for f in $formats; do
	want_tag=1008
	[ "$f" = 6 ] && want_tag=999
	defs=("only_files 1")
	[ "$formats" = 4 ] || defs+=("_rpmformat $f")
	small=$(build_rpm "$SPECS/many.spec" "$SCRATCH/v$f-3" w1.zstdio "nfiles 3" "${defs[@]}")
	big=$(build_rpm "$SPECS/many.spec" "$SCRATCH/v$f-20" w1.zstdio "nfiles 20" "${defs[@]}")
	[ "$(qf "$small" '[%{FILENAMES}\n]' | wc -l)" = 3 ] || fail "the small package is not 3 files"
	d=$SCRATCH/v$f.work
	mkdir -p "$d"

	note "v$f: 3 files, the tags fit into $want_tag"
	cp "$small" "$d/fit.rpm"
	read -r size0 tag0 count0 rest0 tail0 < <(sighdr info "$d/fit.rpm") || fail "cannot read $small"
	check_eq "v$f: the unsigned package's reserved tag" "$tag0" "$want_tag"
	sign_ours "$d/fit.rpm"
	read -r size1 tag1 count1 rest1 tail1 < <(sighdr info "$d/fit.rpm") || fail "cannot read the signed package"
	added=$((rest1 - rest0))
	[ "$added" -gt 1000 ] || fail "v$f: signing added only $added bytes of tags"
	check_eq "v$f: file size after signing" "$size1" "$size0"
	check_eq "v$f: $want_tag after signing ($added bytes of tags)" "$tag1 $count1" "$tag0 $((count0 - added))"
	check_eq "v$f: main header and payload" "$tail1" "$tail0"
	note "v$f: $size0 bytes before and after; $want_tag $count0 -> $count1"
	check_signed "$d/fit.rpm" "$CERT" --key "$KEY"
	digests_ok "$d/fit.rpm"
	cp "$d/fit.rpm" "$d/fit-signed.rpm"
	expect_ok "strip" "$RPMVERITY" strip "$d/fit.rpm"
	check "v$f: strip gives the package back byte for byte" cmp "$d/fit.rpm" "$small"

	note "v$f: 20 files, the tags do not fit"
	cp "$big" "$d/grow.rpm"
	read -r size0 tag0 count0 rest0 tail0 < <(sighdr info "$d/grow.rpm") || fail "cannot read $big"
	sign_ours "$d/grow.rpm"
	read -r size1 tag1 count1 rest1 tail1 < <(sighdr info "$d/grow.rpm") || fail "cannot read the signed package"
	added=$((rest1 - rest0))
	[ "$added" -ge "$count0" ] || fail "v$f: $added bytes of tags would have fit into $count0"
	check_eq "v$f: $want_tag kept whole" "$tag1 $count1" "$tag0 $count0"
	check_eq "v$f: the file grew by the signature header's growth" \
		"$size1" "$((size0 + $(pad $((96 + 16 + rest1 + count1))) - $(pad $((96 + 16 + rest0 + count0)))))"
	check_eq "v$f: main header and payload" "$tail1" "$tail0"
	note "v$f: $size0 -> $size1 bytes; $want_tag $count0"
	check_signed "$d/grow.rpm" "$CERT" --key "$KEY"
	digests_ok "$d/grow.rpm"
	cp "$d/grow.rpm" "$d/grow-signed.rpm"
	expect_ok "strip" "$RPMVERITY" strip "$d/grow.rpm"
	read -r size2 tag2 count2 _ tail2 < <(sighdr info "$d/grow.rpm") || fail "cannot read the stripped package"
	check_eq "v$f: strip keeps the size and gives the space to $want_tag" \
		"$size2 $tag2 $count2 $tail2" "$size1 $tag0 $((count0 + added)) $tail0"
	digests_ok "$d/grow.rpm"

	note "v$f: strip against rpmsign --delfilesign (rpm $rpmver)"
	for p in fit grow; do
		cp "$d/$p-signed.rpm" "$d/$p-del.rpm"
		expect_ok "rpmsign --delfilesign" rpmsign --delfilesign "$d/$p-del.rpm"
		cmpd=$(sighdr same "$d/$p.rpm" "$d/$p-del.rpm")
		if [ "${rpmver%%.*}" -ge 6 ]; then
			check_eq "v$f $p: strip and rpm $rpmver's --delfilesign" "$cmpd" identical
		else
			# rpm before 6 keeps the reserved tag as signing left it.
			read -r _ _ count1 _ < <(sighdr info "$d/$p.rpm")
			read -r _ _ count2 _ < <(sighdr info "$d/$p-signed.rpm")
			check_eq "v$f $p: strip and rpm $rpmver's --delfilesign, all but $want_tag" \
				"$cmpd" "reserved $count1 $count2"
		fi
	done

	[ "$f" = 4 ] && [ $openpgp = 1 ] || continue
	note "v$f: against rpmsign --addsign --signverity (rpm $rpmver)"
	for p in fit grow; do
		src=$small
		[ $p = grow ] && src=$big
		cp "$src" "$d/$p-up.rpm"
		expect_ok "rpmsign --addsign --signverity" rpmsign_verity "$d/$p-up.rpm" "$KEY" "$CERT"
		cp "$d/$p-up.rpm" "$d/$p-updel.rpm"
		expect_ok "rpmsign --delsign" rpmsign --delsign "$d/$p-updel.rpm"
		cmpd=$(sighdr same "$d/$p-signed.rpm" "$d/$p-updel.rpm")
		if [ $p = grow ]; then
			check_eq "grow: ours and rpmsign's, less its OpenPGP signature" "$cmpd" identical
			continue
		fi
		read -r size1 _ count1 _ < <(sighdr info "$d/$p-signed.rpm")
		read -r size2 _ count2 _ < <(sighdr info "$d/$p-updel.rpm")
		gpgsize=$((count1 - count2))
		[ "$gpgsize" -gt 100 ] || fail "fit: the OpenPGP entry took only $gpgsize bytes"
		check_eq "fit: ours and rpmsign's less its OpenPGP signature ($gpgsize bytes not given back)" \
			"$cmpd $((size1 - size2))" "reserved $count1 $count2 $gpgsize"
		cp "$d/$p-signed.rpm" "$d/$p-gpg.rpm"
		expect_ok "rpmsign --addsign on ours" gpg_sign "$d/$p-gpg.rpm"
		check_eq "fit: ours plus rpmsign's OpenPGP signature and rpmsign's" \
			"$(sighdr same "$d/$p-gpg.rpm" "$d/$p-up.rpm")" identical
		expect_ok "rpm -K on ours plus OpenPGP" rpm_K "$d/$p-gpg.rpm"
		expect_stdout "signatures OK"
	done
done
finish "$TEST"
