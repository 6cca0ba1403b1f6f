# Many packages per call: digests, sign-digests and inject over 40
# packages; a progress line (packages, files, rate) on a terminal, none
# when stderr is not one.
. "$(dirname "$0")/lib.sh"
scratch
key rsa2048
command -v script >/dev/null || skip "script(1) (bsdutils) is missing"
mkdir -p "$SCRATCH/in"
for i in $(seq 1 20); do
	cp "$PKGS/plain.rpm" "$SCRATCH/in/plain$i.rpm"
	cp "$PKGS/kinds.rpm" "$SCRATCH/in/kinds$i.rpm"
done

note "not a terminal: no progress"
split_sign "$SCRATCH/in" "" "$SCRATCH"/in/*.rpm
expect_ok "digests" "$RPMVERITY" digests -o "$SCRATCH/m2" "$SCRATCH"/in/*.rpm
grep -q $'\r' "$ERR" && fail "progress written to a non-terminal"
[ "$(wc -l <"$ERR")" = 1 ] && grep -q "digests: 40 packages" "$ERR" || fail "digests' stderr is not its one summary: $(cat "$ERR")"
for f in "$SCRATCH"/in/*.rpm; do
	"$RPMVERITY" verify --cert "$CERT" "$f" >/dev/null || fail "$f does not verify after inject"
done

note "a terminal: progress lines"
# script(1) gives the command a pseudo-terminal; its transcript is the output
script -qec "'$RPMVERITY' digests -o '$SCRATCH/m3' '$SCRATCH'/in/*.rpm" "$SCRATCH/tty" >/dev/null </dev/null ||
	fail "digests on a terminal failed: $(cat "$SCRATCH/tty")"
grep -aqE $'digests: 40/40 packages, [0-9]+ files, [0-9]+ files/s' "$SCRATCH/tty" ||
	fail "no progress line on a terminal: $(cat -v "$SCRATCH/tty" | head -5)"
cmp "$SCRATCH/m2" "$SCRATCH/m3" || fail "the manifest differs when a terminal is attached"
script -qec "'$RPMVERITY' inject --cert '$CERT' -o '$SCRATCH' '$SCRATCH/sigs' '$SCRATCH'/in/*.rpm" "$SCRATCH/tty2" >/dev/null </dev/null ||
	fail "inject on a terminal failed: $(cat -v "$SCRATCH/tty2" | tail -3)"
grep -aqE "inject: checked 40/40 packages" "$SCRATCH/tty2" || fail "no inject progress on a terminal: $(cat -v "$SCRATCH/tty2" | head -5)"
