# digests over many packages runs them side by side, one lane per job: the
# manifest is the one -j 1 writes (one package after another), blocks in
# the order given, whatever the number of lanes; a bad package among them
# fails the run with its name and nothing is written, however far the
# other lanes had got.
. "$(dirname "$0")/lib.sh"
scratch
mkdir -p "$SCRATCH/in" "$SCRATCH/out"
i=0
for round in 1 2 3; do
	for n in kinds-gzip kinds-xz plain kinds-zstd many kinds-none kinds-bzip2; do
		i=$((i + 1))
		cp "$PKGS/$n.rpm" "$SCRATCH/in/p$(printf %02d $i)-$n.rpm"
	done
done
pkgs=("$SCRATCH"/in/*.rpm)

note "every lane count gives -j 1's manifest"
expect_ok "digests -j 1" "$RPMVERITY" digests -j 1 -o "$SCRATCH/out/m1" "${pkgs[@]}"
for j in 2 3 8 64; do
	expect_ok "digests -j $j" "$RPMVERITY" digests -j $j -o "$SCRATCH/out/m$j" "${pkgs[@]}"
	cmp -s "$SCRATCH/out/m1" "$SCRATCH/out/m$j" || fail "-j $j's manifest differs from -j 1's"
done

note "blocks in the order given: each package's block, as digests writes it alone"
for p in "${pkgs[@]}"; do
	"$RPMVERITY" digests -j 1 "$p" 2>/dev/null | sed '1d;$d' || fail "digests $p alone failed"
done >"$SCRATCH/blocks"
[ "$(grep -c '^package ' "$SCRATCH/blocks")" = ${#pkgs[@]} ] || fail "not one block per package"
sed '1d;$d' "$SCRATCH/out/m2" | cmp -s - "$SCRATCH/blocks" ||
	fail "the manifest's blocks are not the packages' own, in the order given"

note "a bad package in the middle: named, and no manifest"
head -c 20000 "$PKGS/many.rpm" >"$SCRATCH/in/p09-truncated.rpm"
pkgs=("$SCRATCH"/in/*.rpm)
before=$(state "$SCRATCH/in")
for j in 1 2 8; do
	expect_fail "digests -j $j with a truncated package" "p09-truncated\.rpm" \
		"$RPMVERITY" digests -j $j -o "$SCRATCH/out/bad$j" "${pkgs[@]}"
	[ -e "$SCRATCH/out/bad$j" ] && fail "-j $j: a manifest was written after a failure"
	grep -q 'p0[1-8]-\|p1[0-9]-\|p2[0-9]-' "$ERR" && fail "-j $j: other packages blamed: $(cat "$ERR")"
done
same_state "after the failed runs" "$SCRATCH/in" "$before"
[ -z "$(ls -A "$SCRATCH/out" | grep -v '^m[0-9]*$')" ] || fail "temporary files left: $(ls -A "$SCRATCH/out")"
finish "$TEST"
