# sign-digests refuses malformed manifests (bad hex, unknown algorithm,
# truncated lines, absurd counts...) with the line number, before signing
# anything, and never crashes; no signature file is left behind.
. "$(dirname "$0")/lib.sh"
scratch
key rsa2048
p=$(copy_pkg plain "$SCRATCH/p")
expect_ok "digests" "$RPMVERITY" digests -o "$SCRATCH/good" "$p"
good=$SCRATCH/good
pkgline=$(grep -n '^package' "$good" | cut -d: -f1)
firstfile=$(grep -n '^file [0-9]* sha256' "$good" | head -1 | cut -d: -f1)
secondfile=$(grep -n '^file [0-9]* sha256' "$good" | sed -n 2p | cut -d: -f1)
endline=$(wc -l <"$good")

# bad NAME LINE REGEX: the manifest in $SCRATCH/NAME is refused at LINE.
bad() {
	expect_fail "$1" "$SCRATCH/$1: line $2: .*$3" \
		"$RPMVERITY" sign-digests --key "$KEY" --cert "$CERT" -o "$SCRATCH/out" "$SCRATCH/$1"
	[ ! -e "$SCRATCH/out" ] && [ -z "$(ls "$SCRATCH" | grep '^out')" ] || fail "$1: a signature file was written"
}
# edit NAME SED-SCRIPT: a copy of the good manifest, edited.
edit() { sed "$2" "$good" >"$SCRATCH/$1"; }

edit badhex "${firstfile}s/ sha256 ./ sha256 g/"; bad badhex "$firstfile" "bad hex"
edit upperhex "${firstfile}s/ sha256 \(.*\)$/ sha256 \U\1/"; bad upperhex "$firstfile" "bad hex"
edit shorthex "${firstfile}s/.$//"; bad shorthex "$firstfile" "bad hex"
edit badbinding "${pkgline}s/ [0-9a-f]\{64\} / 1234 /"; bad badbinding "$pkgline" "bad hex in the binding"
edit algo "${firstfile}s/ sha256 / md5 /"; bad algo "$firstfile" "unknown algorithm 'md5'"
edit mixed "${secondfile}s/ sha256 \([0-9a-f]*\)$/ sha512 \1\1/"; bad mixed "$secondfile" "algorithm sha512 in a package whose files use sha256"
edit huge "${pkgline}s/ [0-9]*$/ 99999999999999999999999/"; bad huge "$pkgline" "bad file count"
edit toomany "${pkgline}s/ [0-9]*$/ 16777217/"; bad toomany "$pkgline" "bad file count"
edit fewer "${pkgline}s/ \([0-9]*\)$/ 999/"; bad fewer "$endline" "file lines where 999 were announced"
edit negative "${pkgline}s/ [0-9]*$/ -1/"; bad negative "$pkgline" "bad file count"
edit version "1s/ 1$/ 2/"; bad version 1 "unsupported version"
edit nomagic "1s/.*/hello/"; bad nomagic 1 "not an rpm-verity manifest"
edit index "${firstfile}s/^file [0-9]*/file 7/"; bad index "$firstfile" "file index 7 where"
edit fields "${firstfile}s/$/ extra/"; bad fields "$firstfile" "malformed file line"
edit space "${firstfile}s/ sha256/  sha256/"; bad space "$firstfile" "empty field"
edit cr "${firstfile}s/$/\r/"; bad cr "$firstfile" "control character"
edit endcount "\$s/end 1/end 2/"; bad endcount "$endline" "end line says 2 packages"
edit after "\$a junk"; bad after "$((endline + 1))" "text after the end line"
head -c -1 "$good" >"$SCRATCH/nonewline"; bad nonewline "$endline" "truncated line"
head -n "$secondfile" "$good" | head -c -20 >"$SCRATCH/cut"; bad cut "$secondfile" "truncated line"
head -n "$firstfile" "$good" >"$SCRATCH/cutline"; bad cutline "$((firstfile + 1))" "input ends before"
: >"$SCRATCH/empty"; bad empty 1 "input ends before the version line"
{ head -c 100000 /dev/zero; echo; } >"$SCRATCH/nul"; bad nul 1 "line longer|control character"
head -c 100000 /dev/urandom >"$SCRATCH/random"; bad random 1 ""

note "from stdin"
run sh -c "sed '${firstfile}s/ sha256 / sha1 /' '$good' | '$RPMVERITY' sign-digests --key '$KEY' --cert '$CERT'"
[ "$RC" = 1 ] && grep -q "stdin: line $firstfile: .*unknown algorithm 'sha1'" "$ERR" && [ ! -s "$OUT" ] ||
	{ _show "sign-digests < manifest"; fail "malformed manifest on stdin not refused with its line number"; }

note "the good manifest is signed"
expect_ok "sign-digests" "$RPMVERITY" sign-digests --key "$KEY" --cert "$CERT" -o "$SCRATCH/out" "$good"
