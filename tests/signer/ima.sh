# IMA sigv3 signatures (sign --ima-key/--ima-cert, verify --ima-cert, strip):
# one entry per header file in tag 274, hex, non-empty exactly where the
# fs-verity entry is; each a signature_v2_hdr (type 6, version 3, the hash
# algorithm, the certificate's key id, the size) over hash(ima_file_id) that
# openssl itself makes (RSA: byte for byte) or accepts (ECDSA), from the
# digest fsverity-utils computes; tag 275 the longest value. verify finds
# wrong keys and moved or damaged entries; strip and a plain re-sign remove
# them; bad options leave the package as it was.
. "$(dirname "$0")/lib.sh"
scratch
command -v fsverity >/dev/null || skip "fsverity (fsverity-utils) not installed"

# ima_entries PKG: "path<TAB>hex" per header file.
ima_entries() { qf "$1" '[%{FILENAMES}\t%{FILESIGNATURES}\n]'; }
skid_tail() { openssl x509 -in "$1" -noout -ext subjectKeyIdentifier | tail -1 | tr -d ' :' | tr A-F a-f | tail -c 9; }

# independent_check PKG CERT KEY ALGO: every entry against openssl and fsverity-utils.
independent_check() {
	local pkg=$1 cert=$2 key=$3 algo=$4 x=$SCRATCH/x id hexalgo want_len=0 n=0
	local keyid
	keyid=$(skid_tail "$cert")
	case $algo in sha256) hexalgo=04 ;; sha512) hexalgo=06 ;; esac
	rm -rf "$x" && mkdir -p "$x" && (cd "$x" && rpm2cpio "$pkg" | cpio -idm --quiet) ||
		fail "cannot unpack $pkg"
	openssl x509 -in "$cert" -noout -pubkey >"$SCRATCH/pub.pem"
	qf "$pkg" '[%{FILENAMES}\t%{FILEMODES}\t%{FILEFLAGS}\t%{FILESIGNATURES}\n]' >"$SCRATCH/ima.txt"
	while IFS=$'\t' read -r path mode flags hex; do
		if (( (mode & 0170000) != 0100000 || (flags & 64) != 0 )); then
			[ -z "$hex" ] || fail "$path: IMA entry on a file without fs-verity signature"
			continue
		fi
		[ -n "$hex" ] || fail "$path: regular file without IMA signature"
		n=$((n + 1))
		(( ${#hex} / 2 > want_len )) && want_len=$(( ${#hex} / 2 ))
		[ "${hex:0:6}" = "0603$hexalgo" ] || fail "$path: header ${hex:0:6}, want 0603$hexalgo"
		[ "${hex:6:8}" = "$keyid" ] || fail "$path: key id ${hex:6:8}, want $keyid (certificate's SKID)"
		[ $((16#${hex:14:4})) = $(( ${#hex} / 2 - 9 )) ] || fail "$path: size field ${hex:14:4} does not match"
		id=$(fsverity digest --hash-alg="$algo" "$x$path" | cut -d' ' -f1 | cut -d: -f2)
		printf "06${hexalgo}%s" "$id" | xxd -r -p >"$SCRATCH/fid"
		echo -n "${hex:18}" | xxd -r -p >"$SCRATCH/sig"
		openssl dgst "-$algo" -verify "$SCRATCH/pub.pem" -signature "$SCRATCH/sig" \
			"$SCRATCH/fid" >/dev/null || fail "$path: openssl does not accept the IMA signature"
		if [ -n "$key" ]; then # RSA PKCS#1 v1.5 is deterministic
			openssl dgst "-$algo" -sign "$key" "$SCRATCH/fid" | cmp -s - "$SCRATCH/sig" ||
				fail "$path: differs from openssl's own signature"
		fi
	done <"$SCRATCH/ima.txt"
	[ "$n" -gt 0 ] || fail "$pkg: no signed file checked"
	[ "$(qf "$pkg" '%{FILESIGNATURELENGTH}')" = "$want_len" ] ||
		fail "$pkg: FILESIGNATURELENGTH $(qf "$pkg" '%{FILESIGNATURELENGTH}'), longest $want_len"
	echo "   $pkg: $n IMA signatures checked by openssl (key id $keyid, $algo)"
}

note "rpm-verity-keygen --ima: a key and a certificate the CA signed"
: "${KEYGEN:?set by ctest}"
ca=$SCRATCH/ca
mkdir -p "$ca"
openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 2 -subj "/CN=test CA/" \
	-addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign \
	-keyout "$ca/ca.key" -out "$ca/ca.pem" 2>/dev/null || fail "cannot make a test CA"
expect_ok "keygen --ima" "$KEYGEN" --ima --ca "$ca/ca.pem" --ca-key "$ca/ca.key" --days 2 "$SCRATCH/ik"
expect_stdout "%keyring:.ima"
[ "$(ls "$SCRATCH/ik" | tr '\n' ' ')" = "ima-cert.der ima-cert.pem ima-key.pem " ] ||
	fail "keygen --ima made: $(ls -A "$SCRATCH/ik")"
openssl verify -CAfile "$ca/ca.pem" "$SCRATCH/ik/ima-cert.pem" >/dev/null || fail "the CA did not sign it"
grep -q "IMA key id:  $(skid_tail "$SCRATCH/ik/ima-cert.pem") " "$OUT" || fail "keygen printed another key id"
expect_ok "keygen --ima --key (the fs-verity key certified for IMA)" "$KEYGEN" --ima \
	--ca "$ca/ca.pem" --ca-key "$ca/ca.key" --key "$KEYS/rsa2048/signing-key.pem" "$SCRATCH/ik2"
[ "$(ls "$SCRATCH/ik2" | tr '\n' ' ')" = "ima-cert.der ima-cert.pem " ] || fail "keygen --key made a key"
expect_ok "keygen --check of the certified key" "$KEYGEN" --check \
	"$KEYS/rsa2048/signing-key.pem" "$SCRATCH/ik2/ima-cert.der"
expect_fail "keygen --ima without a CA" "needs --ca" "$KEYGEN" --ima "$SCRATCH/ik3"
expect_fail "keygen --key without --ima" "goes with --ima" "$KEYGEN" \
	--key "$KEYS/rsa2048/signing-key.pem" "$SCRATCH/ik3"
expect_fail "keygen --ca without --ca-key" "go together" "$KEYGEN" --ca "$ca/ca.pem" "$SCRATCH/ik3"
expect_fail "keygen --ima with another CA's key" "cannot sign" "$KEYGEN" --ima --ca "$ca/ca.pem" \
	--ca-key "$KEYS/rsa2048/signing-key.pem" "$SCRATCH/ik3"
[ ! -e "$SCRATCH/ik3" ] || [ -z "$(ls -A "$SCRATCH/ik3")" ] || fail "a refused keygen left files"

note "RSA-2048, the same key for fs-verity and IMA"
key rsa2048
p=$(copy_pkg kinds "$SCRATCH/p")
expect_ok "sign --ima-key" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" \
	--ima-key "$KEY" --ima-cert "$CERT" "$p"
expect_stdout "with IMA signatures"
check_signed "$p" "$CERT"
expect_ok "verify --ima-cert" "$RPMVERITY" verify --cert "$CERT" --ima-cert "$CERT" "$p"
expect_stdout "IMA signatures OK"
independent_check "$p" "$CERT" "$KEY" sha256
expect_ok "rpm -K --nosignature (main header and payload untouched)" rpm -K --nosignature "$p"
[ "$(ima_entries "$p" | grep -c '/opt/rvt/links/[ab]	06')" = 2 ] || fail "hardlinks lack IMA entries"
[ "$(ima_entries "$p" | grep '/opt/rvt/links/a	' | cut -f2)" = \
  "$(ima_entries "$p" | grep '/opt/rvt/links/b	' | cut -f2)" ] || fail "hardlink members differ"
expect_ok "verify without --ima-cert" "$RPMVERITY" verify --cert "$CERT" "$p"
expect_stdout "IMA signatures not checked"

note "ECDSA P-256 IMA key beside an RSA fs-verity key, sha512 digests"
ec_key=$KEYS/p256/signing-key.pem ec_cert=$KEYS/p256/cert.pem
p2=$(copy_pkg kinds-gzip "$SCRATCH/p2")
expect_ok "sign --algo sha512 --ima-key P-256" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" \
	--algo sha512 --ima-key "$ec_key" --ima-cert "$ec_cert" "$p2"
expect_ok "verify --ima-cert" "$RPMVERITY" verify --cert "$CERT" --ima-cert "$ec_cert" "$p2"
independent_check "$p2" "$ec_cert" "" sha512
expect_problem "verify with the fs-verity certificate as IMA certificate" "key id" \
	"$RPMVERITY" verify --cert "$CERT" --ima-cert "$CERT" "$p2"

note "passphrase-protected IMA key"
p3=$(copy_pkg plain "$SCRATCH/p3")
expect_ok "sign --ima-pass-file" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" \
	--ima-key "$KEYS/rsapass/signing-key.pem" --ima-cert "$KEYS/rsapass/cert.pem" \
	--ima-pass-file "$KEYS/pass" "$p3"
expect_ok "verify" "$RPMVERITY" verify --cert "$CERT" --ima-cert "$KEYS/rsapass/cert.pem" "$p3"

note "verify finds damaged and moved entries"
# RSA values are all one length, so two can trade places in the file itself.
bad=$SCRATCH/bad && mkdir -p "$bad" && cp "$p" "$bad/swapped.rpm" && cp "$p" "$bad/flipped.rpm"
ima_entries "$p" >"$SCRATCH/ima-p.txt"
python3 - "$bad" "$SCRATCH/ima-p.txt" <<'PY' || fail "cannot make the damaged packages"
import sys
d, listing = sys.argv[1], sys.argv[2]
rows = [l.split("\t") for l in open(listing).read().splitlines()]
a, b = [r[1].encode() for r in rows if r[0] in ("/etc/rvt.conf", "/opt/rvt/empty")]
assert a != b and len(a) == len(b)
for name, edit in (("swapped", lambda s: s.replace(a, b"@" * len(a)).replace(b, a).replace(b"@" * len(a), b)),
                   ("flipped", lambda s: s.replace(a, a[:40] + (b"0" if a[40:41] != b"0" else b"1") + a[41:]))):
    path = f"{d}/{name}.rpm"
    data = open(path, "rb").read()
    assert data.count(a) == 1
    open(path, "wb").write(edit(data))
PY
expect_problem "entries moved between files" "rvt.conf: IMA signature does not match" \
	"$RPMVERITY" verify --cert "$CERT" --ima-cert "$CERT" "$bad/swapped.rpm"
expect_problem "a changed signature byte" "rvt.conf: IMA signature does not match" \
	"$RPMVERITY" verify --cert "$CERT" --ima-cert "$CERT" "$bad/flipped.rpm"
p4=$(copy_pkg kinds-xz "$SCRATCH/p4")
expect_ok "sign without IMA" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" "$p4"
expect_problem "verify --ima-cert of a package without IMA signatures" "no IMA signatures" \
	"$RPMVERITY" verify --cert "$CERT" --ima-cert "$CERT" "$p4"

note "bad options leave the package as it was"
before=$(state "$SCRATCH/p2")
expect_fail "--ima-key without --ima-cert" "ima-cert" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" \
	--ima-key "$KEY" "$p2"
expect_fail "IMA key and certificate that do not match" "does not match" "$RPMVERITY" sign \
	--key "$KEY" --cert "$CERT" --ima-key "$KEY" --ima-cert "$ec_cert" "$p2"
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$SCRATCH/noskid.key" -out "$SCRATCH/noskid.pem" \
	-subj /CN=noskid/ -days 2 -addext "subjectKeyIdentifier=none" 2>/dev/null ||
	fail "openssl cannot make a test certificate"
openssl x509 -in "$SCRATCH/noskid.pem" -noout -ext subjectKeyIdentifier 2>/dev/null | grep -q . &&
	fail "could not make a certificate without a subject key identifier"
expect_fail "a certificate without subject key identifier" "noskid.pem: .*subject key identifier" \
	"$RPMVERITY" sign --key "$KEY" --cert "$CERT" --ima-key "$SCRATCH/noskid.key" \
	--ima-cert "$SCRATCH/noskid.pem" "$p2"
expect_fail "unreadable IMA key" "nonexistent" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" \
	--ima-key "$SCRATCH/nonexistent" --ima-cert "$CERT" "$p2"
same_state "refused IMA options" "$SCRATCH/p2" "$before"

note "re-signing without --ima-key drops them; strip removes them"
expect_ok "sign again without --ima-key" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" "$p"
expect_stdout "dropping the IMA signatures"
[ "$(qf "$p" '%{FILESIGNATURELENGTH}')" = "(none)" ] || fail "FILESIGNATURELENGTH left behind"
expect_ok "sign with IMA again" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" \
	--ima-key "$KEY" --ima-cert "$CERT" "$p"
expect_ok "strip" "$RPMVERITY" strip "$p"
expect_stdout "IMA signatures removed"
[ -z "$(qf "$p" '[%{FILESIGNATURES}\n]' | grep .)" ] || fail "FILESIGNATURES still there after strip"
[ "$(qf "$p" '%{FILESIGNATURELENGTH}')" = "(none)" ] || fail "FILESIGNATURELENGTH still there after strip"
[ "$(qf "$p" '%{VERITYSIGNATUREALGO}')" = "(none)" ] || fail "fs-verity signatures still there after strip"
expect_ok "rpm -K --nosignature after strip" rpm -K --nosignature "$p"
finish "$TEST"
