# SHA-512 fs-verity digests (--algo sha512 and %_verity_algorithm), tag 277
# = 2, and a refusal of algorithms the kernel does not know.
. "$(dirname "$0")/lib.sh"
scratch
key rsa2048
p=$(copy_pkg kinds "$SCRATCH")

expect_ok "sign --algo sha512" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" --algo sha512 "$p"
[ "$(qf "$p" '%{VERITYSIGNATUREALGO}')" = 2 ] || fail "VERITYSIGNATUREALGO is not 2 after --algo sha512"
check_signed "$p" "$CERT" --key "$KEY" --algo sha512

note "%_verity_algorithm sha512 from ~/.rpmmacros"
p=$(copy_pkg kinds-zstd "$SCRATCH/m")
mkdir "$SCRATCH/home"
echo "%_verity_algorithm sha512" >"$SCRATCH/home/.rpmmacros"
expect_ok "sign with %_verity_algorithm" env HOME="$SCRATCH/home" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" "$p"
[ "$(qf "$p" '%{VERITYSIGNATUREALGO}')" = 2 ] || fail "%_verity_algorithm sha512 was not used"
check_signed "$p" "$CERT" --key "$KEY" --algo sha512

note "unknown algorithm refused, package unchanged"
p=$(copy_pkg kinds-zstd "$SCRATCH/u")
before=$(state "$SCRATCH/u")
expect_fail "--algo md5" "md5" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" --algo md5 "$p"
same_state "--algo md5" "$SCRATCH/u" "$before"
finish "$TEST"
