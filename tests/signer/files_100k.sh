# A package of 100,000 files: every entry present and in header order, the
# signer's own verify passes, and a random sample passes the independent
# check (all digests are computed independently).
. "$(dirname "$0")/lib.sh"
scratch
key rsa2048
n=100000
note "building a package with $n files"
t0=$(date +%s)
p=$(build_rpm "$SPECS/many.spec" "$SCRATCH/p" w1.zstdio "nfiles $n")
t1=$(date +%s)
note "rpmbuild took $((t1 - t0)) s"
expect_ok "sign" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" "$p"
t2=$(date +%s)
note "signing took $((t2 - t1)) s"
[ "$(entries "$p" | grep -c .)" = $n ] || fail "expected $n non-empty entries"
check_signed "$p" "$CERT" --key "$KEY" --sample 200
note "checks took $(($(date +%s) - t2)) s"
finish "$TEST"
