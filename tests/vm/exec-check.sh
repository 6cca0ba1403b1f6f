#!/bin/bash
# Scripts under IPE (Linux 6.19 on): rpm-verity-run asks the
# kernel with execveat(AT_EXECVE_CHECK) whether a script may be executed
# before it hands the script to its interpreter, and IPE judges that ask as
# op=EXECUTE (ipe_hook=BPRM_CREDS_FOR_EXEC). Under the policy of
# keys/rpm-verity-ipe-policy, enforced:
#   1  the signed #! script of vm-ipe (installed by rpm with verity.so)
#      runs through the launcher with a signed sh;
#   2  an unsigned copy of it is refused: exit 126, the launcher names the
#      file and the reason, and IPE logs a denial (type 1420) naming it;
#   3  the launcher's own exec of the interpreter is judged as any exec: an
#      unsigned sh is refused (126) even for the signed script;
#   4  what stays out of reach: the signed sh runs the unsigned script when
#      given it directly (sh FILE), since sh does not ask; executing the
#      unsigned script itself (./FILE) is refused by the kernel as before.
# Permissive first: the launcher runs the unsigned script, and IPE logs
# what it would have refused (enforcing=0).
# The guest's programs come from the host over 9p, unsigned, and run only
# while the policy is permissive; under enforcement the shell starts only
# signed static programs: a static build of the launcher
# (tests/tools' rpm-verity-run-static) and the host's static busybox as sh,
# both copied to the scratch btrfs and signed with the test packages' key.
# usage: exec-check.sh (host side: skips before booting a kernel that
# RPMVERITY_KERNEL names when it has no IPE or is older than 6.19; needs
# $RPMVERITY_BUILD and $RPMVERITY_PACKAGES as the other VM tests)
if [ "${1:-}" != --guest ]; then
	here=$(cd "$(dirname "$0")" && pwd)
	top=$(cd "$here/../.." && pwd)
	. "$here/../lib/testlib.sh"
	needs_qemu
	needs_ipe_kernel "$top" 6.19 "IPE's judging of AT_EXECVE_CHECK"
	exec "$top/vm/run" "$0" --guest "$@"
fi
shift
. "$(dirname "$0")/lib.sh"
need_build
IPE=/sys/kernel/security/ipe
mountpoint -q /sys/kernel/security || mount -t securityfs securityfs /sys/kernel/security ||
	bail "cannot mount securityfs"
[ -d $IPE ] || skip "kernel $(uname -r) has no IPE ($IPE missing)"
release=$(uname -r)
[ "$(printf '%s\n' 6.19 "${release%%[-+]*}" | sort -V | head -1)" = 6.19 ] ||
	skip "kernel $release: IPE judges AT_EXECVE_CHECK from 6.19"
[ -r "$PKGS/vm-ipe-1.rpm" ] || bail "$PKGS/vm-ipe-1.rpm: missing (tests/vm/make-packages.sh)"
tool=$VMT_DIR/../../keys/rpm-verity-ipe-policy
launcher=$BUILD/tests/tools/rpm-verity-run-static
[ -x "$launcher" ] || bail "$launcher: not built"
busybox=$(command -v busybox) || bail "no busybox (Debian: busybox-static)"
! ldd "$busybox" >/dev/null 2>&1 || bail "$busybox: not statically linked (Debian: busybox-static)"
echo 10000 >/proc/sys/kernel/printk_ratelimit_burst
RPMV_DEFINES=(--define "_fsverity_boot_loader_warning 0")
T=/tmp/exec-check
mkdir -p $T

mnt=/tmp/exec-btrfs
mkfs_mount btrfs "$SCRATCH_DEV" "$mnt"
new_root "$mnt"
# If a check dies while enforcing, the shell could run nothing more.
at_exit "echo 0 >$IPE/enforce"

echo "# install vm-ipe (fs-verity signatures only), and sign the launcher and sh"
check "rpm -i vm-ipe under enforce" rpmv enforce -i "$PKGS/vm-ipe-1.rpm"
signed=$mnt/usr/bin/vm-ipe-hello
check "the package's #! script has verity" has_verity "$signed"
mkdir -p "$mnt/opt/bin" "$mnt/usr/local/bin"
run=$mnt/opt/bin/rpm-verity-run
sh=$mnt/opt/bin/sh	# busybox runs as the applet its name says
cp "$launcher" "$run"
cp "$busybox" "$sh"
for f in "$run" "$sh"; do
	fsverity sign "$f" "$T/sig" --key="$PKGS/trusted/signing-key.pem" \
		--cert="$PKGS/trusted/cert.pem" >/dev/null || bail "fsverity sign $f"
	fsverity enable "$f" --signature="$T/sig" || bail "fsverity enable $f"
	check "${f#$mnt} has verity and a signature" has_verity "$f"
done
unsigned=$mnt/usr/local/bin/unsigned.sh
cp "$signed" "$unsigned"
chmod 755 "$unsigned"
check_fails "the unsigned copy of the script has no verity" has_verity "$unsigned"

# ipe_record HOOK ENFORCING PATH: the IPE audit line of a denial for PATH
# at HOOK (kauditd prints records a moment after the event); empty if none.
ipe_record() {
	local i line
	for i in 1 2 3 4 5 6 7 8 9 10; do
		line=$(dmesg | grep 'type=1420' | grep "ipe_hook=$1 enforcing=$2 " |
			grep -F "path=\"$3\"" | head -1)
		[ -n "$line" ] && break
		sleep 0.3
	done
	echo "$line"
}
# in_mode 0|1 CMD...: CMD with IPE's enforce switch at 0 or 1, then 0
# again; stdout and stderr in $T/out and $T/err, status in $RC. Under
# enforcement the shell only forks and execs CMD (a signed static program)
# and writes the switch with its builtin echo.
in_mode() {
	local mode=$1
	shift
	echo "$mode" >$IPE/enforce
	"$@" >$T/out 2>$T/err
	RC=$?
	echo 0 >$IPE/enforce
	sed 's/^/  out: /' $T/out
	sed 's/^/  err: /' $T/err
}

echo "# the signed policy, permissive"
"$tool" make --name rpm-verity-exec --version 0.0.1 >$T/policy.txt || bail "make the policy"
"$tool" sign --key "$PKGS/trusted/signing-key.pem" --cert "$PKGS/trusted/cert.pem" \
	$T/policy.txt $T/policy.p7s || bail "sign the policy"
echo 0 >$IPE/enforce
check "rpm-verity-ipe-policy load activates it" "$tool" load $T/policy.p7s
dmesg -C
in_mode 0 "$run" "$sh" "$unsigned"
check_eq "permissive: the launcher runs the unsigned script" "$RC $(cat $T/out)" "0 hello from vm-ipe"
rec=$(ipe_record BPRM_CREDS_FOR_EXEC 0 "$unsigned")
check "permissive: IPE logs the ask it would have refused (BPRM_CREDS_FOR_EXEC, enforcing=0)" test -n "$rec"
echo "  logged: $rec"

echo "# enforced"
dmesg -C
in_mode 1 "$run" "$sh" "$signed" one two
check_eq "1: the signed script runs through the launcher and the signed sh" \
	"$RC $(cat $T/out)" "0 hello from vm-ipe"
check "  nothing on stderr" test ! -s $T/err
check "  no IPE denial names the script, the launcher or sh" bash -c \
	"! dmesg | grep type=1420 | grep 'enforcing=1' | grep -qE 'path=\"($signed|$run|$sh)\"'"

dmesg -C
in_mode 1 "$run" "$sh" "$unsigned"
check_eq "2: the unsigned script is refused with 126, and does not run" "$RC $(cat $T/out)" "126 "
check "  the launcher names the file and the reason" grep -qF \
	"rpm-verity-run: $unsigned: refused: the kernel does not allow it to be executed: Permission denied" $T/err
rec=$(ipe_record BPRM_CREDS_FOR_EXEC 1 "$unsigned")
check "  IPE's denial names it (op=EXECUTE, BPRM_CREDS_FOR_EXEC, the launcher, the default rule)" \
	grep -qE "ipe_op=EXECUTE ipe_hook=BPRM_CREDS_FOR_EXEC enforcing=1 pid=[0-9]+ comm=\"rpm-verity-run\" path=\"$unsigned\" dev=\"[^\"]+\" ino=[0-9]+ rule=\"DEFAULT op=EXECUTE action=DENY\"" <<<"$rec"
echo "  logged: $rec"

dmesg -C
in_mode 1 "$run" /bin/sh "$signed"
check_eq "3: the signed script with the guest's unsigned /bin/sh: 126" "$RC $(cat $T/out)" "126 "
check "  the launcher says the interpreter cannot run" grep -qF \
	"rpm-verity-run: /bin/sh: cannot run the interpreter: Permission denied" $T/err
rec=$(ipe_record BPRM_CHECK 1 "$(readlink -f /bin/sh)")
check "  IPE's denial of the exec names the interpreter (BPRM_CHECK)" test -n "$rec"
echo "  logged: $rec"

dmesg -C
in_mode 1 "$sh" "$unsigned"
check_eq "4: out of reach: the signed sh runs the unsigned script given directly" \
	"$RC $(cat $T/out)" "0 hello from vm-ipe"
check "  and IPE was not asked" bash -c \
	"sleep 1; ! dmesg | grep type=1420 | grep -qF 'path=\"$unsigned\"'"
in_mode 1 "$unsigned"
check_eq "  executing the unsigned script itself is refused (bash: 126)" "$RC" 126
rec=$(ipe_record BPRM_CHECK 1 "$unsigned")
check "  IPE's denial names it (BPRM_CHECK)" test -n "$rec"
echo "  logged: $rec"
check_eq "enforce is off again" "$(cat $IPE/enforce)" 0
umount "$mnt"
finish
