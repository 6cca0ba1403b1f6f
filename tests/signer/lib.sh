# What the signer tests share beyond tests/lib/testlib.sh: where the
# fixture's keys and packages are, and checks every signed package gets.
. "$(dirname "${BASH_SOURCE[0]}")/../lib/testlib.sh"
rpm_install_opts

: "${RPMVERITY:?set by ctest}" "${FIXTURE:?set by ctest}" "${SPECS:?set by ctest}"
KEYS=$FIXTURE/keys
PKGS=$FIXTURE/pkgs
export GNUPGHOME=$FIXTURE/gnupg
GPG_NAME="rpm-verity test <rpm-verity-test@example.invalid>"

[ -x "$RPMVERITY" ] || fail "$RPMVERITY is not built"

# key NAME: the fixture's signing key and certificate NAME (rsa2048, rsa4096,
# p256, p384, rsapass) as $KEY and $CERT ($PASSFILE for rsapass).
key() {
	KEY=$KEYS/$1/signing-key.pem CERT=$KEYS/$1/cert.pem PASSFILE=$KEYS/pass
	[ -r "$KEY" ] || fail "fixture key $1 missing (did signer_setup run?)"
}

# copy_pkg NAME DIR: a private copy of fixture package NAME.rpm in DIR.
copy_pkg() {
	mkdir -p "$2"
	cp "$PKGS/$1.rpm" "$2/" || fail "fixture package $1 missing (did signer_setup run?)"
	echo "$2/$1.rpm"
}

# check_signed PKG CERT [VERITY-CHECK OPTIONS]: PKG passes rpm-verity verify,
# the independent check, and rpm's own reader sees a signature exactly on
# regular non-%ghost files, identical across each hardlink set.
check_signed() {
	local pkg=$1 cert=$2
	shift 2
	expect_ok "rpm-verity verify $pkg" "$RPMVERITY" verify --cert "$cert" "$pkg"
	expect_ok "independent check of $pkg" "$VERITY_CHECK" --cert "$cert" "$@" "$pkg"
	sed 's/^/   /' "$OUT"
	check_rpm_view "$pkg"
}

# check_rpm_view PKG: what rpmfiVSignature returns for each file.
check_rpm_view() {
	local pkg=$1 name mode flags view bad=0
	"$VSIG_DUMP" "$pkg" >"$SCRATCH/view" 2>"$SCRATCH/view.err" ||
		fail "vsig-dump $pkg: $(cat "$SCRATCH/view.err")"
	qf "$pkg" '[%{FILENAMES}\t%{FILEMODES}\t%{FILEFLAGS}\n]' >"$SCRATCH/modes"
	[ "$(wc -l <"$SCRATCH/view")" = "$(wc -l <"$SCRATCH/modes")" ] ||
		fail "$pkg: rpm sees $(wc -l <"$SCRATCH/view") signature entries for $(wc -l <"$SCRATCH/modes") files"
	while IFS=$'\t' read -r name mode flags <&3 && IFS=$'\t' read -r _ view <&4; do
		if (( (mode & 0170000) == 0100000 && (flags & 64) == 0 )); then
			[[ $view == sig* ]] || { echo "  $name: rpm reports no signature for a regular file" >&2; bad=1; }
		else
			[ "$view" = none ] || { echo "  $name (mode $mode, flags $flags): rpm reports a signature ($view), expected none" >&2; bad=1; }
		fi
	done 3<"$SCRATCH/modes" 4<"$SCRATCH/view"
	[ $bad = 0 ] || fail "$pkg: rpm's view of the signatures is wrong"
}

# made_up_ima PKG LIST: for each file of PKG, in header order, a made-up
# IMA value in hex when LIST (a file of paths) names it, else an empty line;
# one value per content, so hardlinks share it as real IMA signatures do.
made_up_ima() {
	qf "$1" '[%{FILENAMES} %{FILEDIGESTS}\n]' | while read -r f digest; do
		if grep -qxF "$f" "$2"; then
			printf '0603040a0b0c0d%s\n' "${digest:0:16}"
		else
			echo
		fi
	done
}

# entries PKG: the VERITYSIGNATURES entries, one line each, newlines removed.
entries() {
	qf "$1" '[%{VERITYSIGNATURES}@@\n]' | tr -d '\n' | sed 's/@@/\n/g'
}

# gpg starts an agent for the fixture's GNUPGHOME; stop it when the test ends.
stop_gpg_agent_at_exit() {
	[ -n "${_agent_stop:-}" ] && return
	_agent_stop=1
	at_exit "gpgconf --kill gpg-agent"
}

# rpmsign_verity PKG KEY CERT: upstream's signer, with the fixture's GPG key
# (rpmsign --signverity insists on a GPG signature too). With GPG_TIME set
# (YYYYMMDDTHHMMSS, after the fixture's key was made), gpg signs as at that
# time, so two signings of the same header give the same bytes.
rpmsign_verity() {
	stop_gpg_agent_at_exit
	rpmsign --addsign --signverity --fskpath "$2" --certpath "$3" \
		-D "_gpg_name $GPG_NAME" -D "__gpg /usr/bin/gpg" \
		${GPG_TIME:+-D "_gpg_sign_cmd_extra_args --faked-system-time $GPG_TIME!"} "$1"
}

# has_rpm_openpgp: whether rpm can make and check OpenPGP signatures.
# rpm 4.20 and 6.x built without rpm-sequoia (upstream-rpm/build on Debian
# 12) cannot: rpmsign then fails with "Unsupported OpenPGP signature".
has_rpm_openpgp() {
	local db rc=0
	db=$(mktemp -d "${TMPDIR:-/tmp}/rvt-openpgp.XXXXXX")
	rpmkeys --dbpath "$db" --import "$KEYS/gpg-pub.asc" >/dev/null 2>&1 || rc=1
	rm -rf "$db"
	return $rc
}

# needs_rpm_openpgp: skip unless has_rpm_openpgp.
needs_rpm_openpgp() {
	has_rpm_openpgp ||
		skip "this rpm ($(rpm --version)) has no OpenPGP support: rpmsign cannot sign"
}

# gpg_sign PKG: a GPG header signature only (GPG_TIME as for rpmsign_verity).
gpg_sign() {
	stop_gpg_agent_at_exit
	rpmsign --addsign -D "_gpg_name $GPG_NAME" -D "__gpg /usr/bin/gpg" \
		${GPG_TIME:+-D "_gpg_sign_cmd_extra_args --faked-system-time $GPG_TIME!"} "$1"
}

# rpm_K PKG: rpm -K against an rpmdb that trusts the fixture's GPG key.
rpm_K() {
	if [ ! -d "$SCRATCH/rpmdb" ]; then
		rpm --dbpath "$SCRATCH/rpmdb" --initdb &&
			rpm --dbpath "$SCRATCH/rpmdb" --import "$KEYS/gpg-pub.asc" ||
			fail "cannot import the GPG key into a scratch rpmdb"
	fi
	rpm --dbpath "$SCRATCH/rpmdb" -K "$1"
}

# split_sign OUTDIR SIGHDRDIR PKG...: the split flow with the fixture key
# $KEY/$CERT (see key): digests, sign-digests, inject into OUTDIR. With
# $IMA_KEY and $IMA_CERT set, IMA sigv3 signatures too.
split_sign() {
	local out=$1 hdr=$2
	shift 2
	expect_ok "digests" "$RPMVERITY" digests -o "$SCRATCH/manifest" "$@"
	expect_ok "sign-digests" "$RPMVERITY" sign-digests --key "$KEY" --cert "$CERT" \
		${IMA_KEY:+--ima-key "$IMA_KEY" --ima-cert "$IMA_CERT"} \
		-o "$SCRATCH/sigs" "$SCRATCH/manifest"
	expect_ok "inject" "$RPMVERITY" inject --cert "$CERT" ${IMA_KEY:+--ima-cert "$IMA_CERT"} \
		-o "$out" ${hdr:+--sighdr-out "$hdr"} "$SCRATCH/sigs" "$@"
}

# splice UNSIGNED SIGHDR OUT: what Koji's splice does: UNSIGNED's lead, the
# stored signature header, UNSIGNED from its main header on.
splice() {
	python3 - "$@" <<'PY'
import struct, sys
u = open(sys.argv[1], 'rb').read()
il, dl = struct.unpack('>II', u[104:112])
start = (96 + 16 + il * 16 + dl + 7) & ~7
open(sys.argv[3], 'wb').write(u[:96] + open(sys.argv[2], 'rb').read() + u[start:])
PY
}

# sighdr info PKG: file size, reserved tag and its byte count, the signature
# header's bytes other than the reserved tag's data, and the SHA-256 of
# everything after the (padded) signature header.
# sighdr same PKG1 PKG2: "identical", "reserved N1 N2" when only the reserved
# tag's count (and so the file size) differs, or "differ: WHY".
sighdr() {
	python3 - "$@" <<'PY'
import hashlib, struct, sys

def parse(path):
    d = open(path, "rb").read()
    il, dl = struct.unpack(">II", d[104:112])
    index = [struct.unpack(">IIii", d[112 + 16 * i:128 + 16 * i]) for i in range(il)]
    data = d[112 + 16 * il:112 + 16 * il + dl]
    end = 112 + 16 * il + dl
    res = [e for e in index if e[0] in (999, 1008)]
    if len(res) != 1:
        sys.exit("%s: %d reserved tags" % (path, len(res)))
    tag, typ, off, count = res[0]
    if typ != 7 or off + count != dl - 16 or any(data[off:off + count]):
        sys.exit("%s: reserved tag %d is not zeros at the end of the data" % (path, tag))
    return dict(d=d, index=index, data=data, tag=tag, count=count, off=off,
                rest=16 * il + dl - count, tail=d[(end + 7) & ~7:])

if sys.argv[1] == "info":
    p = parse(sys.argv[2])
    print(len(p["d"]), p["tag"], p["count"], p["rest"],
          hashlib.sha256(p["tail"]).hexdigest())
else:
    a, b = parse(sys.argv[2]), parse(sys.argv[3])
    if a["d"] == b["d"]:
        print("identical")
    elif a["d"][:96] != b["d"][:96]:
        print("differ: lead")
    elif a["tail"] != b["tail"]:
        print("differ: main header or payload")
    elif a["tag"] != b["tag"] or a["off"] != b["off"]:
        print("differ: reserved tag or its offset")
    elif a["data"][:a["off"]] != b["data"][:b["off"]] or a["data"][-16:] != b["data"][-16:]:
        print("differ: signature header data")
    elif [e for e in a["index"] if e[0] not in (62, a["tag"])] != \
         [e for e in b["index"] if e[0] not in (62, b["tag"])]:
        print("differ: signature header index")
    else:
        print("reserved", a["count"], b["count"])
PY
}
