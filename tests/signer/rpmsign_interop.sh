# Interoperability with upstream rpmsign --signverity (rpm 4.18): its
# packages pass rpm-verity verify, and for an RSA key our entries for
# regular files are byte-identical to its entries.
. "$(dirname "$0")/lib.sh"
needs_rpm_openpgp
scratch
key rsa2048
up=$(copy_pkg plain "$SCRATCH/up")
ours=$(copy_pkg plain "$SCRATCH/ours")

expect_ok "rpmsign --signverity" rpmsign_verity "$up" "$KEY" "$CERT"
[ -n "$(entries "$up" | grep .)" ] || fail "rpmsign wrote no verity signatures"
expect_ok "rpm-verity verify on rpmsign's package" "$RPMVERITY" verify --cert "$CERT" "$up"
expect_ok "rpm-verity sign" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" "$ours"
check_signed "$ours" "$CERT" --key "$KEY"

note "entries of regular files equal rpmsign's"
qf "$ours" '[%{FILEMODES}\n]' >"$SCRATCH/modes"
entries "$ours" >"$SCRATCH/ours.e"
entries "$up" >"$SCRATCH/up.e"
qf "$ours" '[%{FILENAMES}\n]' >"$SCRATCH/names"
[ "$(wc -l <"$SCRATCH/ours.e")" = "$(wc -l <"$SCRATCH/up.e")" ] || fail "entry counts differ from rpmsign's"
regular=0
while read -r mode <&3 && read -r o <&4 && read -r u <&5 && read -r name <&6; do
	if (( (mode & 0170000) == 0100000 )); then
		[ "$o" = "$u" ] || fail "$name: our entry differs from rpmsign's"
		regular=$((regular + 1))
	fi
done 3<"$SCRATCH/modes" 4<"$SCRATCH/ours.e" 5<"$SCRATCH/up.e" 6<"$SCRATCH/names"
[ $regular -ge 5 ] || fail "only $regular regular files compared"
[ "$(qf "$ours" '%{VERITYSIGNATUREALGO}')" = "$(qf "$up" '%{VERITYSIGNATUREALGO}')" ] ||
	fail "VERITYSIGNATUREALGO differs from rpmsign's"
note "$regular regular files identical to rpmsign's"

note "ECDSA: rpmsign's P-256 signatures verify"
key p256
up=$(copy_pkg plain "$SCRATCH/up256")
expect_ok "rpmsign --signverity (P-256)" rpmsign_verity "$up" "$KEY" "$CERT"
expect_ok "rpm-verity verify on rpmsign's P-256 package" "$RPMVERITY" verify --cert "$CERT" "$up"
finish "$TEST"
