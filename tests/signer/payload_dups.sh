# A payload that carries one path twice (with other content the second
# time, sizes and payload digest consistent), also for the member of a
# hardlink set that carries the set's content: sign refuses it naming the
# package and the path, before anything is written (the input stays byte
# for byte, no -o output, no sanitizer report), and verify reports it.
# A file left out of the payload is named too.
. "$(dirname "$0")/lib.sh"
scratch
key rsa2048
d=$SCRATCH/in
mkdir -p "$d" "$SCRATCH/out"
src=$(copy_pkg kinds-none "$SCRATCH/src")
# craft_payload.py writes newc cpio; a v6 package (rpm 6's rpmbuild) has
# stripped cpio entries, so under rpm 6 the same package is built as v4.
if [ "$(qf "$src" '%{RPMFORMAT}')" = 6 ]; then
	note "rpm writes v6 packages: crafting from a v4 build (%_rpmformat 4)"
	rm -f "$src"
	src=$(build_rpm "$SPECS/kinds.spec" "$SCRATCH/src4" w0.ufdio \
		"gen $TOOLS_DIR/gen-content.py" "_rpmformat 4")
	mv "$src" "$SCRATCH/src/kinds-none.rpm"
	src=$SCRATCH/src/kinds-none.rpm
fi
expect_ok "sign the package to duplicate from" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" -o "$SCRATCH/out" "$src"
for c in plain:/opt/rvt/sizes/size-4097 hardlink:/opt/rvt/sub/c; do
	path=${c#*:}
	python3 "$(dirname "$0")/craft_payload.py" "$src" "$d/dup-${c%%:*}.rpm" "$path" ||
		fail "cannot craft the ${c%%:*} duplicate"
	python3 "$(dirname "$0")/craft_payload.py" "$SCRATCH/out/kinds-none.rpm" \
		"$d/dup-${c%%:*}-signed.rpm" "$path" || fail "cannot craft the signed ${c%%:*} duplicate"
done
rm -f "$SCRATCH/out/kinds-none.rpm"
before=$(state "$d")
for c in plain:/opt/rvt/sizes/size-4097 hardlink:/opt/rvt/sub/c; do
	p=$d/dup-${c%%:*}.rpm re="dup-${c%%:*}\.rpm: ${c#*:}: appears twice in the payload"
	expect_fail "sign, ${c%%:*} path twice" "$re" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" "$p"
	expect_fail "sign -o, ${c%%:*} path twice" "$re" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" -j 1 -o "$SCRATCH/out" "$p"
	[ -z "$(ls -A "$SCRATCH/out")" ] || fail "sign -o left $(ls -A "$SCRATCH/out")"
	expect_problem "verify, ${c%%:*} path twice" "dup-${c%%:*}-signed\.rpm: ${c#*:}: appears twice" \
		"$RPMVERITY" verify --cert "$CERT" "$d/dup-${c%%:*}-signed.rpm"
done

note "a file missing from the payload is named"
python3 "$(dirname "$0")/craft_payload.py" "$src" "$SCRATCH/missing.rpm" /opt/rvt/sizes/size-1 --drop ||
	fail "cannot craft the missing file"
expect_fail "sign, a file missing" "missing\.rpm: /opt/rvt/sizes/size-1: missing from the payload" \
	"$RPMVERITY" sign --key "$KEY" --cert "$CERT" -o "$SCRATCH/out" "$SCRATCH/missing.rpm"
[ -z "$(ls -A "$SCRATCH/out")" ] || fail "sign -o left $(ls -A "$SCRATCH/out")"
same_state "after refusing the duplicates" "$d" "$before"
