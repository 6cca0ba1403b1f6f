# A file over 4 GiB (sparse zeros, so the package stays small): rpmbuild
# stores it with 64-bit sizes, the signer streams it in bounded memory, and
# its digest equals `fsverity digest` of a same-sized file of zeros.
. "$(dirname "$0")/lib.sh"
scratch
key rsa2048
big=$((4 * 1024 * 1024 * 1024 + 4097))
note "building a package with a $big-byte file"
p=$(build_rpm "$SPECS/huge.spec" "$SCRATCH/p" w1.zstdio "hugesize $big")
[ "$(qf "$p" '[%{FILENAMES} %{LONGFILESIZES}\n]' | awk '$1 == "/opt/huge/zeros" { print $2 }')" = $big ] ||
	fail "the package does not hold a $big-byte file"
ls -l "$p"
mem=$SCRATCH/mem
expect_ok "sign" /usr/bin/time -f %M -o "$mem" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" "$p"
note "peak memory while signing: $(cat "$mem") KiB"
[ "$(cat "$mem")" -lt 400000 ] || fail "signing a 4 GiB file took $(cat "$mem") KiB of memory (not streamed?)"
expect_ok "verify" "$RPMVERITY" verify --cert "$CERT" "$p"
truncate -s $big "$SCRATCH/zeros"
echo small >"$SCRATCH/small"
check_signed "$p" "$CERT" --key "$KEY" --digest-of "/opt/huge/zeros=$SCRATCH/zeros" \
	--digest-of "/opt/huge/small=$SCRATCH/small"
finish "$TEST"
