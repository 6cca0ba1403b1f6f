#!/bin/bash
# Test fixture: builds the vt-demo packages the plugin tests install, signs
# them, and derives broken variants. Output in $PKGS (see lib.sh):
#   cert.pem key.pem     throwaway RSA-2048 signing pair
#   vt-demo-1.rpm        unsigned            vt-demo-2.rpm  unsigned, newer
#   signed-1.rpm         signed              signed-2.rpm   signed, newer
#   sigs-1.txt           signed-1's entries, one line per file (header order)
#   bad-base64.rpm, truncated.rpm, notpkcs7.rpm, algo99.rpm, count.rpm,
#   unsigned-two.rpm
#                        signed-1 with one thing broken (see below)
# Signing uses the project's signer when it is built (<build>/signer/
# rpm-verity); otherwise each file is signed with `fsverity sign` and the
# entries are written with the verity-tag-edit helper.
. "$(dirname "$0")/lib.sh"

rm -rf "$PKGS"
mkdir -p "$PKGS/top"
openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=rpm-verity plugin test" \
	-keyout "$PKGS/key.pem" -out "$PKGS/cert.pem" 2>/dev/null

for v in 1 2; do
	rpmbuild -bb --nodeps --quiet -D "_topdir $PKGS/top" -D "vt_version $v" \
		-D "_binary_payload w1.gzdio" "$SRC/vt-demo.spec" >"$PKGS/build.log" 2>&1 ||
		{ cat "$PKGS/build.log"; fail "rpmbuild of vt-demo $v failed"; }
	cp "$PKGS/top/RPMS/noarch/vt-demo-$v-1.noarch.rpm" "$PKGS/vt-demo-$v.rpm"
done

# sign_with_fsverity IN OUT: one `fsverity sign` per regular file.
sign_with_fsverity() {
	x=$PKGS/extract; rm -rf "$x"; mkdir -p "$x"
	(cd "$x" && rpm2cpio "$1" | cpio -idm --quiet)
	: >"$PKGS/sigs.tmp"
	rpm -qp --qf '[%{FILEMODES:perms}|%{FILEFLAGS:fflags}|%{FILENAMES}\n]' "$1" |
	while IFS='|' read -r perms flags name; do
		case "$perms:$flags" in
		-*:*g*|[!-]*) echo ;;	# ghost or not a regular file: no signature
		*)	fsverity sign "$x$name" "$PKGS/sig.der" --key="$PKGS/key.pem" \
				--cert="$PKGS/cert.pem" --hash-alg=sha256 --block-size=4096 >/dev/null
			base64 -w0 "$PKGS/sig.der"; echo ;;
		esac
	done >"$PKGS/sigs.tmp"
	"$VERITY_TAG_EDIT" "$1" "$2" --sigs "$PKGS/sigs.tmp" --algo 1
}

for v in 1 2; do
	if [ -x "$SIGNER" ] && [ "${VERITY_TEST_SIGNER:-}" != fsverity ]; then
		cp "$PKGS/vt-demo-$v.rpm" "$PKGS/signed-$v.rpm"
		"$SIGNER" sign --key "$PKGS/key.pem" --cert "$PKGS/cert.pem" \
			"$PKGS/signed-$v.rpm" || fail "rpm-verity sign failed"
	else
		sign_with_fsverity "$PKGS/vt-demo-$v.rpm" "$PKGS/signed-$v.rpm"
	fi
done
"$VERITY_TAG_EDIT" "$PKGS/signed-1.rpm" --dump >"$PKGS/sigs-1.txt"
grep -q '^MI' "$PKGS/sigs-1.txt" || fail "signed-1.rpm carries no signatures"

# Line of /usr/share/vt-demo/two in header order, for the broken variants.
two=$(rpm -qp --qf '[%{FILENAMES}\n]' "$PKGS/signed-1.rpm" | grep -n '/two$' | cut -d: -f1)
variant() { # NAME SED-EXPR [extra tag-edit options]
	name=$1 expr=$2; shift 2
	sed "$expr" "$PKGS/sigs-1.txt" >"$PKGS/$name.txt"
	"$VERITY_TAG_EDIT" "$PKGS/signed-1.rpm" "$PKGS/$name.rpm" --sigs "$PKGS/$name.txt" "$@"
}
variant bad-base64 "${two}s/.*/@@not*base64@@/"
# The first 100 bytes of the DER: a SEQUENCE whose length runs past the end.
trunc=$(sed -n "${two}p" "$PKGS/sigs-1.txt" | base64 -d | head -c 100 | base64 -w0)
variant truncated "${two}s|.*|$trunc|"
# A well-formed DER SEQUENCE that is no PKCS#7 SignedData.
variant notpkcs7 "${two}s|.*|MAMCAQA=|"
variant algo99 "" --algo 99
variant count "${two}d"
variant unsigned-two "${two}s/.*//"
ls "$PKGS"/*.rpm >/dev/null
