# 2,000 files with distinct content: every one signed, -j 1 and -j 2 give
# the same (RSA is deterministic) result, and a sample of 300 is checked
# independently (all digests are).
. "$(dirname "$0")/lib.sh"
scratch
key rsa2048
p1=$(copy_pkg many "$SCRATCH/j1")
p2=$(copy_pkg many "$SCRATCH/j2")
expect_ok "sign -j 1" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" -j 1 "$p1"
expect_ok "sign -j 2" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" -j 2 "$p2"
cmp -s "$p1" "$p2" || fail "-j 1 and -j 2 produce different packages"
n=$(entries "$p1" | grep -c .)
[ "$n" = 2000 ] || fail "expected 2,000 non-empty entries, got $n"
check_signed "$p1" "$CERT" --key "$KEY" --sample 300
finish "$TEST"
