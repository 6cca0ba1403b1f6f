# Every payload compression rpm 4.18 reads: gzip, bzip2, xz, lzma, zstd and
# none. Each package is signed in place and checked both ways.
. "$(dirname "$0")/lib.sh"
scratch
key rsa2048
for c in gzip bzip2 xz lzma zstd none; do
	note "$c"
	p=$(copy_pkg "kinds-$c" "$SCRATCH/$c")
	comp=$(qf "$p" '%{PAYLOADCOMPRESSOR}')
	[ "$comp" = "$c" ] || [ "$c:$comp" = "none:(none)" ] || fail "kinds-$c.rpm has compressor '$comp'"
	expect_ok "sign ($c)" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" "$p"
	[ "$(ls -A "$SCRATCH/$c")" = "kinds-$c.rpm" ] || fail "leftover files after signing in place: $(ls -A "$SCRATCH/$c")"
	check_signed "$p" "$CERT" --key "$KEY"
done
finish "$TEST"
