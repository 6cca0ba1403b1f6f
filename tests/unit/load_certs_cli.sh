#!/bin/bash
# rpm-verity-load-certs on the host, where it must never touch the host's
# keyrings: only what it decides before the kernel is asked. --print-config
# takes %_fsverity_certs (under --root), then the drop-in directory's *.pem,
# *.der and *.crt in name order, and the switches with their overrides (the
# keyring trust defaults to builtin_and_secondary_trusted); bad
# input (a missing file, a file with no certificate, a name with a space,
# nothing configured, an unknown option, an unknown trust) fails with the
# file and the reason,
# before any keyring is looked at.
. "$(dirname "$0")/../lib/testlib.sh"
set -eu
L=${1:?usage: load_certs_cli.sh LOADER}
T=$(mktemp -d "${TMPDIR:-/tmp}/load-certs-cli.XXXXXX")
at_exit "rm -rf '$T'"

mkdir -p "$T/root/etc/pki/rpm-verity" "$T/root/vendor" "$T/home"
for f in b.pem a.der c.crt; do : >"$T/root/etc/pki/rpm-verity/$f"; done
: >"$T/root/etc/pki/rpm-verity/README"
: >"$T/root/etc/pki/rpm-verity/.hidden.pem"
printf '%%_fsverity_certs /vendor/x.pem /vendor/y.pem\n%%_fsverity_lock_keyring 1\n' \
	>"$T/home/.rpmmacros"
export HOME=$T/home

got=$("$L" --root "$T/root" --print-config | tr '\n' ' ')
want="cert $T/root/vendor/x.pem cert $T/root/vendor/y.pem cert $T/root/etc/pki/rpm-verity/a.der cert $T/root/etc/pki/rpm-verity/b.pem cert $T/root/etc/pki/rpm-verity/c.crt trust builtin_and_secondary_trusted lock 1 require-signatures 0 "
check_eq "--print-config" "$got" "$want"

got=$("$L" --root "$T/root" --no-lock --require-signatures -p /extra.pem | tr '\n' ' ')
case $got in *"cert /extra.pem trust builtin_and_secondary_trusted lock 0 require-signatures 1 ") ;;
*) fail "overrides: got '$got'" ;; esac
got=$("$L" --no-config -p /only.pem | tr '\n' ' ')
[ "$got" = "cert /only.pem trust builtin_and_secondary_trusted lock 0 require-signatures 0 " ] ||
	fail "--no-config: got '$got'"
printf '%%_fsverity_keyring_trust builtin_trusted\n' >>"$T/home/.rpmmacros"
got=$("$L" --root "$T/root" -p | grep '^trust')
check_eq "%_fsverity_keyring_trust" "$got" "trust builtin_trusted"
got=$("$L" --root "$T/root" --trust none -p | grep '^trust')
check_eq "--trust overrides the macro" "$got" "trust none"
got=$("$L" --root "$T/root" --trust ca:/etc/pki/package-ca.pem -p | grep '^trust')
check_eq "--trust ca:FILE" "$got" "trust ca:/etc/pki/package-ca.pem"

# expect_error WANT-REGEX ARGS...: exits 1 and says WANT on stderr.
expect_error() {
	want=$1; shift
	rc=0
	"$L" "$@" >"$T/out" 2>&1 || rc=$?
	[ $rc = 1 ] || { cat "$T/out"; fail "$*: exit $rc, want 1"; }
	grep -qE -- "$want" "$T/out" || { cat "$T/out"; fail "$*: no /$want/"; }
	! grep -q 'certificates\? from' "$T/out" || fail "$*: reported a load"
	ok "refused: $*"
}
expect_error "cannot read certificate $T/none.pem: No such file or directory" \
	--no-config "$T/none.pem"
echo "not a certificate" >"$T/junk.pem"
expect_error "$T/junk.pem holds no X.509 certificate" --no-config "$T/junk.pem"
expect_error "white space in a certificate file name" --no-config "$T/a b.pem"
expect_error "no certificate configured" --no-config
expect_error 'keyring trust "anything" \(--trust\) is not builtin_and_secondary_trusted, builtin_trusted, ca:/PATH/TO/CA or none' \
	--no-config --trust anything /x.pem
expect_error 'keyring trust "ca:relative.pem" \(--trust\) is not' --no-config --trust ca:relative.pem /x.pem
printf '%%_fsverity_keyring_trust secondary\n' >>"$T/home/.rpmmacros"
expect_error 'keyring trust "secondary" \(%_fsverity_keyring_trust\) is not' --root "$T/root"
rc=0
"$L" --bogus >/dev/null 2>&1 || rc=$?
[ $rc = 2 ] || fail "unknown option: exit $rc, want 2"
"$L" --help | grep -q -- '--print-config' || fail "--help"
finish "rpm-verity-load-certs configuration and bad input"
