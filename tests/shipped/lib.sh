# What the rpm-shipped tests share: the signer tests' helpers
# (tests/signer/lib.sh), with rpm, rpmbuild, rpmsign and rpmkeys taken from
# the chroot shipped-rpm/chroot made for $SUITE (trixie or sid), so those
# helpers run the rpm Debian ships, with rpm-sequoia. Our own tools run on
# the host. The chroot sees the scratch directory, the fixture and the
# source tree at the same paths, and /dev (where the scratch directories
# live); a command there leaves nothing behind (shipped-rpm/run).
: "${SUITE:?set by ctest: trixie or sid}" "${SHIPPED_RUN:?set by ctest}"
. "$(dirname "${BASH_SOURCE[0]}")/../signer/lib.sh"
need_root "chroot into Debian's $SUITE"
SRC_TESTS=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# shipped_scratch: scratch, with a copy of the fixture's GPG key of its own
# (the chroot's gpg starts its own agent there, which ends with each
# command), and rpm, rpmbuild, rpmsign, rpmkeys and rpm2cpio first on PATH
# as programs that run $SUITE's (so tests/tools' programs run them too).
# The host's rpm stays /usr/bin/rpm.
shipped_scratch() {
	local t
	scratch
	mkdir -m 700 "$SCRATCH/gnupg"
	cp -r "$GNUPGHOME/pubring.kbx" "$GNUPGHOME/trustdb.gpg" \
		"$GNUPGHOME/private-keys-v1.d" "$SCRATCH/gnupg/" ||
		fail "cannot copy the fixture's GPG key (did signer_setup run?)"
	GNUPGHOME=$SCRATCH/gnupg
	# No agent outlives a chroot command: nothing to stop.
	_agent_stop=1
	mkdir "$SCRATCH/bin"
	for t in rpm rpmbuild rpmsign rpmkeys rpm2cpio; do
		printf '#!/bin/sh\nexec %q %q --bind %q --bind %q --bind %q env GNUPGHOME=%q %q "$@"\n' \
			"$SHIPPED_RUN" "$SUITE" "$SCRATCH" "$FIXTURE" "$SRC_TESTS" "$GNUPGHOME" "$t" \
			>"$SCRATCH/bin/$t"
		chmod +x "$SCRATCH/bin/$t"
	done
	PATH=$SCRATCH/bin:$PATH
	RPM_VERSION=$(rpm --version | sed 's/.* //')
	# The package formats their rpmbuild writes: v4, and v6 from rpm 6 on.
	FORMATS=4
	[ -z "$(rpm --eval '%{?_rpmformat}')" ] || FORMATS="4 6"
	# gpg signs as at this time, so two signings of a header are the same
	# bytes: now, as rpm-sequoia refuses a signature dated in the future,
	# and the fixture's GPG key was made before.
	GPG_TIME=$(date -u +%Y%m%dT%H%M%S)
	note "$SUITE's rpm: $(rpm --version), package formats: $FORMATS"
}

# shipped_build SPEC OUTDIR FORMAT [DEFINE...]: their rpmbuild makes SPEC's
# package in FORMAT (4 or 6; zstd payload, tests/tools/gen-content.py as
# gen); prints its path.
shipped_build() {
	local spec=$1 out=$2 format=$3 defs=()
	shift 3
	[ "$FORMATS" = 4 ] || defs=("_rpmformat $format")
	build_rpm "$spec" "$out" w1.zstdio "gen $TOOLS_DIR/gen-content.py" "${defs[@]}" "$@"
}

# regular_entries_equal PKG1 PKG2: the VERITYSIGNATURES entries of every
# regular file but %ghost ones are the same bytes in both, and the
# algorithms agree; prints how many were compared. (Their rpmsign gives an
# empty %ghost file the empty file's signature, ours an empty entry.)
regular_entries_equal() {
	local mode flags a b name n=0
	qf "$1" '[%{FILEMODES} %{FILEFLAGS}\n]' >"$SCRATCH/eq.modes"
	qf "$1" '[%{FILENAMES}\n]' >"$SCRATCH/eq.names"
	entries "$1" >"$SCRATCH/eq.1"
	entries "$2" >"$SCRATCH/eq.2"
	[ "$(wc -l <"$SCRATCH/eq.1")" = "$(wc -l <"$SCRATCH/eq.2")" ] || {
		echo "entry counts differ: $(wc -l <"$SCRATCH/eq.1") and $(wc -l <"$SCRATCH/eq.2")" >&2
		return 1
	}
	while read -r mode flags <&3 && read -r a <&4 && read -r b <&5 && read -r name <&6; do
		(( (mode & 0170000) == 0100000 && (flags & 64) == 0 )) || continue
		[ -n "$a" ] && [ "$a" = "$b" ] || { echo "$name: entries differ" >&2; return 1; }
		n=$((n + 1))
	done 3<"$SCRATCH/eq.modes" 4<"$SCRATCH/eq.1" 5<"$SCRATCH/eq.2" 6<"$SCRATCH/eq.names"
	[ "$(qf "$1" '%{VERITYSIGNATUREALGO}')" = "$(qf "$2" '%{VERITYSIGNATUREALGO}')" ] || {
		echo "VERITYSIGNATUREALGO differs" >&2
		return 1
	}
	echo "$n"
}
