#!/bin/bash
# rpm-verity-enforcer on the host, where it must never load a BPF program:
# only what it decides before the kernel is asked. Bad input (no command, an
# unknown one, an unknown filesystem type, an argument too many) is a usage
# error; status and log say the enforcer is not loaded; load --dry-run
# refuses a root without an rpmdb and a missing certificate, and counts
# nothing bound in an empty rpmdb.
. "$(dirname "$0")/../lib/testlib.sh"
set -u
E=${1:?usage: enforcer_cli.sh rpm-verity-enforcer}
T=$(mktemp -d "${TMPDIR:-/tmp}/enforcer-cli.XXXXXX")
at_exit "rm -rf '$T'"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=t \
	-keyout "$T/key.pem" -out "$T/cert.pem" -days 1 2>/dev/null || bail "openssl req"

# expect STATUS PATTERN ARGS...: exit STATUS, and PATTERN in what it printed.
expect() {
	local want=$1 pat=$2 out rc
	shift 2
	out=$("$E" "$@" 2>&1)
	rc=$?
	check_eq "$* exits $want" "$rc" "$want"
	[[ $out == *$pat* ]] && ok "$*: says '$pat'" || fail "$*: said '$out', not '$pat'"
}
expect 2 "usage:"
expect 2 "unknown command 'frobnicate'" frobnicate
expect 2 "--exempt-fs nofs: unknown filesystem type" load --exempt-fs nofs --dry-run
expect 2 "unexpected argument" load --dry-run extra
expect 3 "not loaded" status
expect 3 "not loaded" log
mkdir -p "$T/empty"
expect 2 "no rpmdb there" load --dry-run --root "$T/empty" --cert "$T/cert.pem"
expect 2 "$T/none.pem: cannot read certificate" load --dry-run --root "$T/empty" --cert "$T/none.pem"
rpm --root "$T/root" --dbpath /var/lib/rpm --initdb || bail "rpm --initdb"
expect 0 "would bind 0 files, 0 not" load --dry-run --root "$T/root" --dbpath /var/lib/rpm --cert "$T/cert.pem"
expect 0 "usage:" --help
finish enforcer_cli
