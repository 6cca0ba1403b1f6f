#!/bin/bash
# common/rpm_headers_check.c, the build's guard against two rpms' headers in
# one build: with the selected rpm's include path and series it compiles;
# told another series, or compiled without the selected rpm's flags, it
# fails and says which; and where the selected rpm is not the system's, the
# system's /usr/include/rpm with the selected series fails too (the mix it
# exists to catch).
# usage: rpm_headers_check.sh CC SOURCE SERIES INCLUDE_DIR...
. "$(dirname "$0")/../lib/testlib.sh"
set -eu
cc=${1:?usage: rpm_headers_check.sh CC SOURCE SERIES INCLUDE_DIR...}
src=${2:?} series=${3:?}
shift 3
incs=()
for d in "$@"; do incs+=("-I$d"); done
scratch
compile() { "$cc" -fsyntax-only "$@" "$src"; }

expect_ok "the selected rpm's headers and series" \
	compile "${incs[@]}" -DRPMVERITY_RPM_SERIES="$series"
other=418
[ "$series" != 418 ] || other=600
expect_fail "another series than the headers'" "finds rpm .*headers first" \
	compile "${incs[@]}" -DRPMVERITY_RPM_SERIES="$other"
expect_fail "no series: not the selected rpm's flags" "without the selected rpm's flags" \
	compile "${incs[@]}"
if [ "$series" != 418 ] && [ -r /usr/include/rpm/rpmlib.h ]; then
	expect_fail "the system's rpm headers in a build against another rpm" \
		"finds rpm 4.18's headers first" compile -DRPMVERITY_RPM_SERIES="$series"
fi
finish
