# inject refuses, naming the package and the file, and leaves every package
# unchanged, when: a signature belongs to another file or package; a digest
# was changed after signing (or before, in transit); a line was dropped or
# added; the signing key is not CERT's; the package was rebuilt after
# digests (kinds-gzip.rpm is the same NEVRA as kinds.rpm, built again).
# With IMA signatures (sign-digests --ima-key): when --ima-cert is missing,
# is not the IMA key's, or is given for a file without IMA signatures; when
# an IMA signature belongs to another file or was changed; when an ima
# line was moved, dropped, or added to an entry without signature.
. "$(dirname "$0")/lib.sh"
scratch
key rsa2048
mkdir -p "$SCRATCH/pkgs"
A=$(copy_pkg kinds "$SCRATCH/pkgs")
B=$(copy_pkg plain "$SCRATCH/pkgs")
expect_ok "digests" "$RPMVERITY" digests -o "$SCRATCH/manifest" "$A" "$B"
expect_ok "sign-digests" "$RPMVERITY" sign-digests --key "$KEY" --cert "$CERT" \
	-o "$SCRATCH/sigs" "$SCRATCH/manifest"
before=$(state "$SCRATCH/pkgs")
A_NEVRA=$(qf "$A" '%{NEVRA}')

# refused WHAT REGEX SIGS [CERT] [parse]: inject with SIGS (and
# $IMA_OPTS) fails saying REGEX, all packages untouched, no signature
# header written.
IMA_OPTS=()
refused() {
	mkdir -p "$SCRATCH/hdr"
	expect_fail "$1" "$2" "$RPMVERITY" inject --cert "${4:-$CERT}" "${IMA_OPTS[@]}" \
		--sighdr-out "$SCRATCH/hdr" "$3" "$A" "$B"
	grep -q "no package was changed" "$ERR" || [ -n "${5:-}" ] || fail "$1: inject does not say nothing was changed"
	same_state "$1" "$SCRATCH/pkgs" "$before"
	[ -z "$(ls -A "$SCRATCH/hdr")" ] || fail "$1: a signature header was written"
}

# the sig lines of package A: "sig INDEX ALGO DIGEST SIG" (regular files)
siglines() { awk '/^package rvt-kinds/ { on = 1; next } /^package/ { on = 0 } on && $3 != "none"' "$SCRATCH/sigs"; }
i=$(siglines | awk 'NR == 1 { print $2 }')
j=$(siglines | awk -v i="$i" '$2 != i && $4 != d { print $2; exit } { d = $4 }')
file_i=$(qf "$A" '[%{FILENAMES}\n]' | sed -n "$((i + 1))p")

note "a signature moved to another file of the package"
sig_j=$(siglines | awk -v j="$j" '$2 == j { print $5 }')
awk -v i="$i" -v s="$sig_j" 'BEGIN { p = 0 } /^package rvt-kinds/ { p = 1 } /^package rvt-plain/ { p = 0 }
	p && $1 == "sig" && $2 == i { $5 = s } { print }' "$SCRATCH/sigs" >"$SCRATCH/moved"
refused "signature of another file" "$A: $file_i: .*(another key|another file)" "$SCRATCH/moved"

note "a whole line moved: the digest and signature of another package's file"
plain_line=$(awk '/^package rvt-plain/ { p = 1; next } p && $1 == "sig" && $3 != "none" { print; exit }' "$SCRATCH/sigs")
awk -v i="$i" -v l="$plain_line" '/^package rvt-kinds/ { p = 1 } /^package rvt-plain/ { p = 0 }
	p && $1 == "sig" && $2 == i { split(l, f, " "); $4 = f[4]; $5 = f[5] } { print }' "$SCRATCH/sigs" >"$SCRATCH/otherpkg"
refused "signature of another package's file" "$A: $file_i: the signature file's digest .* is not the file's" "$SCRATCH/otherpkg"

note "a digest changed after signing"
sed -E "/^package rvt-kinds/,/^package/ s/^(sig $i sha256 )(.)/\\1$(siglines | awk -v i="$i" '$2 == i { c = substr($4, 1, 1); print (c == "0" ? "1" : "0") }')/" \
	"$SCRATCH/sigs" >"$SCRATCH/changed"
cmp -s "$SCRATCH/sigs" "$SCRATCH/changed" && fail "test bug: digest not changed"
refused "digest changed after signing" "$A: $file_i: the signature file's digest" "$SCRATCH/changed"

note "a digest changed before signing (in transit to the signing side)"
sed -E "/^package rvt-kinds/,/^package/ s/^(file $i sha256 )(.)/\\1$(siglines | awk -v i="$i" '$2 == i { c = substr($4, 1, 1); print (c == "0" ? "1" : "0") }')/" \
	"$SCRATCH/manifest" >"$SCRATCH/manifest.bad"
expect_ok "sign the altered manifest" "$RPMVERITY" sign-digests --key "$KEY" --cert "$CERT" \
	-o "$SCRATCH/sigs.bad" "$SCRATCH/manifest.bad"
refused "digest changed before signing" "$A: $file_i: the signature file's digest" "$SCRATCH/sigs.bad"

note "a line dropped, a line added"
awk -v i="$i" '!(/^sig / && $2 == i && !done) { print; next } { done = 1 }' "$SCRATCH/sigs" >"$SCRATCH/dropped"
refused "line dropped" "$SCRATCH/dropped: line [0-9]+: package $A_NEVRA: .*(dropped|added)" "$SCRATCH/dropped" "" parse
awk -v i="$i" '{ print } /^sig / && $2 == i && !done { print; done = 1 }' "$SCRATCH/sigs" >"$SCRATCH/added"
refused "line added" "$SCRATCH/added: line [0-9]+: package $A_NEVRA: .*(dropped|added)" "$SCRATCH/added" "" parse
grep -v "^end" "$SCRATCH/sigs" >"$SCRATCH/noend"
refused "end line dropped" "$SCRATCH/noend: line [0-9]+: input ends before the end line" "$SCRATCH/noend" "" parse
awk '/^package rvt-plain/ { skip = 1 } /^end/ { skip = 0 } !skip' "$SCRATCH/sigs" >"$SCRATCH/nopkg"
refused "package block dropped" "end line says 2 packages, 1 were given" "$SCRATCH/nopkg" "" parse

note "signed with a key that is not CERT's"
key p256
expect_ok "sign with p256" "$RPMVERITY" sign-digests --key "$KEY" --cert "$CERT" -o "$SCRATCH/sigs.p256" "$SCRATCH/manifest"
key rsa2048
refused "key not CERT's" "$A: $file_i: signed by a key other than the certificate's" "$SCRATCH/sigs.p256"

note "package rebuilt after digests"
R=$(copy_pkg kinds-gzip "$SCRATCH/rebuilt")
[ "$(qf "$R" '%{NEVRA}')" = "$A_NEVRA" ] || fail "test bug: kinds-gzip is not the same NEVRA"
rb=$(state "$SCRATCH/rebuilt")
expect_fail "rebuilt package" "$R: $A_NEVRA was rebuilt after digests" \
	"$RPMVERITY" inject --cert "$CERT" "$SCRATCH/sigs" "$R" "$A"
same_state "rebuilt package" "$SCRATCH/rebuilt" "$rb"
same_state "rebuilt package (the good one beside it)" "$SCRATCH/pkgs" "$before"

note "IMA: signature files with ima lines"
IMA_KEY=$KEYS/rsa4096/signing-key.pem IMA_CERT=$KEYS/rsa4096/cert.pem
SI=$SCRATCH/sigs-ima
expect_fail "sign-digests --ima-key without --ima-cert" "both --ima-key and --ima-cert" \
	"$RPMVERITY" sign-digests --key "$KEY" --cert "$CERT" --ima-key "$IMA_KEY" -o "$SI" "$SCRATCH/manifest"
[ ! -e "$SI" ] || fail "a refused sign-digests wrote $SI"
expect_ok "sign-digests --ima-key" "$RPMVERITY" sign-digests --key "$KEY" --cert "$CERT" \
	--ima-key "$IMA_KEY" --ima-cert "$IMA_CERT" -o "$SI" "$SCRATCH/manifest"
# imaedit OUT AWK: a copy of $SI with package A's lines edited by AWK
# (the variable a is 1 inside package A; i and j are the files above).
imaedit() {
	awk -v i="$i" -v j="$j" "/^package rvt-kinds/ { a = 1 } /^package rvt-plain/ { a = 0 } $2" "$SI" >"$SCRATCH/$1"
	cmp -s "$SI" "$SCRATCH/$1" && fail "test bug: $1 is not changed"
}
ima_j=$(awk -v j="$j" '/^package rvt-kinds/ { a = 1 } /^package rvt-plain/ { a = 0 } a && $1 == "ima" && $2 == j { print $3 }' "$SI")
[ -n "$ima_j" ] || fail "test bug: no ima line for file $j"
file_j=$(qf "$A" '[%{FILENAMES}\n]' | sed -n "$((j + 1))p")

refused "IMA signatures but no --ima-cert" "$A: .*: $SI has IMA signatures for this package; give --ima-cert" "$SI"
IMA_OPTS=(--ima-cert "$KEYS/p256/cert.pem")
refused "--ima-cert not the IMA key's" "$A: $file_i: IMA signature by key id [0-9a-f]*, the certificate's is" "$SI"
IMA_OPTS=(--ima-cert "$IMA_CERT")
refused "--ima-cert, but no ima lines" "$A: $file_i: .*has no IMA signature for it or any file of the package" "$SCRATCH/sigs"
imaedit ima-moved 'a && $1 == "ima" && $2 == i { $3 = "'"$ima_j"'" } { print }'
refused "IMA signature of another file" "$A: $file_i: IMA signature does not match the file's fs-verity digest .*another file" "$SCRATCH/ima-moved"
imaedit ima-flipped 'a && $1 == "ima" && $2 == i { c = substr($3, 40, 1); $3 = substr($3, 1, 39) (c == "0" ? "1" : "0") substr($3, 41) } { print }'
refused "a changed IMA signature byte" "$A: $file_i: IMA signature does not match" "$SCRATCH/ima-flipped"
imaedit ima-index 'a && $1 == "ima" && $2 == i { $2 = j } { print }'
refused "ima line of another file" "ima-index: line [0-9]+: package $A_NEVRA: ima line for file $j after the sig line of file $i \(it belongs to another file\)" \
	"$SCRATCH/ima-index" "" parse
imaedit ima-dropped 'a && $1 == "ima" && $2 == j { next } { print }'
refused "ima line dropped" "ima-dropped: line [0-9]+: package $A_NEVRA: file $j: no ima line, where the files before it have one" \
	"$SCRATCH/ima-dropped" "" parse
imaedit ima-nofirst 'a && $1 == "ima" && $2 == i { next } { print }'
refused "first ima line dropped" "ima-nofirst: line [0-9]+: package $A_NEVRA: file [0-9]+: ima line, where the files before it have none" \
	"$SCRATCH/ima-nofirst" "" parse
imaedit ima-none 'a && $1 == "ima" { next } { print }'
refused "every ima line of a package dropped" "$A: $file_i: .*has no IMA signature for it or any file of the package" "$SCRATCH/ima-none"
imaedit ima-unsigned '{ print } a && $1 == "sig" && $3 == "none" && !done { print "ima " $2 " '"$ima_j"'"; done = 1 }'
refused "ima line on an entry without signature" "ima-unsigned: line [0-9]+: package $A_NEVRA: file [0-9]+: ima line for an entry without signature" \
	"$SCRATCH/ima-unsigned" "" parse
IMA_OPTS=()

note "the untouched signature file still works"
expect_ok "inject" "$RPMVERITY" inject --cert "$CERT" "$SCRATCH/sigs" "$A" "$B"
check_signed "$A" "$CERT"

note "the untouched IMA signature file works too"
cp "$PKGS/kinds.rpm" "$PKGS/plain.rpm" "$SCRATCH/pkgs/"
expect_ok "inject --ima-cert" "$RPMVERITY" inject --cert "$CERT" --ima-cert "$IMA_CERT" "$SI" "$A" "$B"
expect_ok "verify --ima-cert" "$RPMVERITY" verify --cert "$CERT" --ima-cert "$IMA_CERT" "$A" "$B"
expect_stdout "IMA signatures OK"
