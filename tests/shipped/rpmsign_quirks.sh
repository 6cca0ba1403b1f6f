# What the rpmsign and rpm Debian ships ($SUITE's chroot) do around
# --signverity, which our signer and the README's table rely on: alone it
# prints its usage; with --addsign on a package that already has that
# OpenPGP signature it skips the package, verity signatures and all;
# --resign --signverity signs in 6.1.0 and skips as --addsign in 4.20.1;
# rpm-sequoia calls an OpenPGP signature dated in the future BAD ("Not live
# until"), so the tests fix gpg's clock at a time already past.
. "$(dirname "$0")/lib.sh"
shipped_scratch
key rsa2048
p=$(shipped_build "$SPECS/plain.spec" "$SCRATCH/built" 4)
verity() {
	rpmsign "$@" --fskpath "$KEY" --certpath "$CERT" \
		-D "_gpg_name $GPG_NAME" -D "__gpg /usr/bin/gpg"
}
count() {
	entries "$1" | grep -c . || true
}

cp "$p" "$SCRATCH/alone.rpm"
expect_fail "--signverity without --addsign" "usage|--addsign|Copyright" \
	verity --signverity "$SCRATCH/alone.rpm"
check "--signverity alone leaves the package as it was" cmp "$p" "$SCRATCH/alone.rpm"

cp "$p" "$SCRATCH/pgp.rpm"
expect_ok "--addsign" gpg_sign "$SCRATCH/pgp.rpm"
expect_ok "--addsign --signverity over that OpenPGP signature" \
	verity --addsign --signverity "$SCRATCH/pgp.rpm"
grep -q 'identical signature, skipping' "$ERR" || { _show; fail "rpmsign did not say it skipped"; }
check_eq "--addsign --signverity skipped it: no verity signatures" "$(count "$SCRATCH/pgp.rpm")" 0

expect_ok "--resign --signverity over it" verity --resign --signverity "$SCRATCH/pgp.rpm"
case $RPM_VERSION in
4.20.*) check_eq "4.20.1's --resign --signverity skips it too" "$(count "$SCRATCH/pgp.rpm")" 0 ;;
*) check "$RPM_VERSION's --resign --signverity signs the files" test "$(count "$SCRATCH/pgp.rpm")" -gt 0
   expect_ok "rpm-verity verify on it" "$RPMVERITY" verify --cert "$CERT" "$SCRATCH/pgp.rpm" ;;
esac

cp "$p" "$SCRATCH/future.rpm"
GPG_TIME=20370101T000000 expect_ok "--addsign dated 2037" gpg_sign "$SCRATCH/future.rpm"
run rpm_K "$SCRATCH/future.rpm"
check "rpm -K fails on a signature dated in the future" test "$RC" != 0
check "rpm-sequoia says why" grep -q 'Not live until' "$ERR"
finish "$TEST"
