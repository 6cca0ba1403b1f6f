#!/bin/bash
# The power-cut suite: dnf upgrade of four signed packages
# (a 16 MiB file, 94 small ones, ten new files each) with the verity plugin
# under enforce, the power cut at PC_CUTS instants spread over the upgrade,
# chosen by PC_SEED and printed so a run can be replayed, plus the cut of
# the first-erase point (right after rpm's first erase of a 1.0 package). Each cut gets
# a second boot on the same disk (upgrade.guest check), and a table at the
# end. Fails when any cut leaves a file that cannot be opened ("unreadable"),
# a filesystem check with errors, an rpmdb that does not open, a file
# without verity at a listed path, or a system neither dnf upgrade nor
# dnf's duplicate repair puts right.
#
# PC_FAULT=sigkill kills dnf (and rpm inside it) instead of the machine, and
# checks in the same boot.
#
# usage: upgrade-cuts.sh [btrfs|ext4]
# env: PC_CUTS (default 20), PC_SEED (default: the date), RPMVERITY_KERNEL,
#      PC_FAULT (power or sigkill; default power),
#      PC_TOOL (dnf or rpm: what runs the upgrade; default dnf),
#      PC_FULL_EVERY (default 1: every cut's check reruns the upgrade; N:
#      every Nth and the first, the others check without the rerun),
#      PC_ICOUNT (QEMU -icount for the boots that upgrade, default shift=0:
#      the instants are counted guest time, so a seed replays the same cuts;
#      I/O waits still pass at the host's speed, so under heavy load the
#      upgrade stretches and the same instants fall earlier in it),
#      PC_RPM_DEFINE (one extra macro line for rpm, e.g. "%_fsverity_sync_data 0"),
#      RPMVERITY_BUILD (the build tree: its rpm-verity signs and audits)
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
fs=${1:-btrfs}
. "$here/../lib/testlib.sh"
needs_qemu
keep_going
build=${RPMVERITY_BUILD:?RPMVERITY_BUILD must name the build tree}
cuts=${PC_CUTS:-20}
seed=${PC_SEED:-$(date +%Y%m%d)}
fault=${PC_FAULT:-power}
full_every=${PC_FULL_EVERY:-1}
icount=${PC_ICOUNT-shift=0}
case $fault in power | sigkill) ;; *) bail "PC_FAULT=$fault: want power or sigkill" ;; esac

work=$(mktemp -d "${TMPDIR:-/var/tmp}/powercut.XXXXXX")
at_exit "rm -rf '$work'"
distro=$("$top/distro/build" | tail -1) || bail "distro/build failed"
"$here/make-packages.sh" "$work/pkgs" "$distro" || bail "cannot make the packages"
# The plugin as the distribution packages it (not the sanitized build's,
# which dnf's rpm cannot load), and its rpmdb location.
mkdir -p "$work/boot"
for p in rpm-plugin-verity distro-base; do
	rpm=$(ls "$distro"/repo/$p-[0-9]*.rpm | head -1)
	(cd "$work/boot" && rpm2cpio "$rpm" | cpio -idm --quiet) || bail "cannot unpack $p"
done
export PC_TOOL=${PC_TOOL:-dnf}
export RPMVERITY_SCRATCH_SIZE=2G RPMVERITY_VM_ENV="${RPMVERITY_VM_ENV:-} PC_RPM_DEFINE PC_TOOL"
vm() { # IMAGE MODE [ARG]: boot the guest on IMAGE; output in $work/out
	local img=$1; shift
	RPMVERITY_SCRATCH_IMG=$img RPMVERITY_SCRATCH_IMG2=$work/unused.img \
		"$top/vm/run" "$here/upgrade.guest" "$@" "$fs" "$work/boot" "$work/pkgs" "$build" \
		>"$work/out" 2>&1
}
counted() { # the same, on the counted clock
	RPMVERITY_VM_ICOUNT=$icount vm "$@"
}

vm "$work/base.img" setup || { cat "$work/out"; bail "setup boot"; }
grep -q SETUP-OK "$work/out" || { cat "$work/out"; bail "setup did not finish"; }
cp --sparse=always "$work/base.img" "$work/disk.img"
counted "$work/disk.img" time || { cat "$work/out"; bail "timing boot"; }
span=$(sed -n 's/^UPGRADE-SECONDS=//p' "$work/out")
[ -n "$span" ] || { cat "$work/out"; bail "no upgrade time"; }
note "$fs: the whole upgrade takes $span s in the guest; seed $seed, $cuts cuts within 1.2 x that"

# The instants: uniform over the upgrade and a little past it, from the seed;
# power cuts also at the first-erase point.
mapfile -t instants < <(python3 -c "
import random, sys
r = random.Random(int(sys.argv[1]))
if sys.argv[4] == 'power': print('cleanup')
for _ in range(int(sys.argv[2])): print('%.2f' % (r.uniform(0, 1.2) * float(sys.argv[3])))
" "$seed" "$cuts" "$span" "$fault")

table=$work/table
printf '%-4s %-8s %s\n' cut at findings >"$table"
i=0
for at in "${instants[@]}"; do
	i=$((i + 1))
	cp --sparse=always "$work/base.img" "$work/disk.img"
	if [ $fault = sigkill ]; then
		counted "$work/disk.img" kill "$at" ||
			{ tail -40 "$work/out"; fail "kill $i ($at): the boot failed"; continue; }
	else
		if [ "$at" = cleanup ] && [ "$PC_TOOL" = rpm ]; then
			kill_on='Cleaning up / removing'
		elif [ "$at" = cleanup ]; then
			kill_on='Cleanup +: pc-'
		else
			kill_on=POWERCUT-NOW
		fi
		RPMVERITY_VM_KILL_ON=$kill_on counted "$work/disk.img" cut "$at"
		rc=$?
		[ $rc = 137 ] || { tail -20 "$work/out"; fail "cut $i ($at): the boot ended with status $rc, not the cut"; continue; }
		how=quick
		[ $i = 1 ] || [ $((i % full_every)) = 0 ] && how=check
		vm "$work/disk.img" $how
	fi
	line=$(sed -n 's/^CUTCHECK //p' "$work/out")
	[ -n "$line" ] || { tail -40 "$work/out"; fail "cut $i ($at): the check reported nothing"; continue; }
	printf '%-4s %-8s %s\n' "$i" "$at" "$line" >>"$table"
	echo "cut $i at $at: $line"
	bad=$(echo "$line" | tr ' ' '\n' | grep -E '^(unreadable|verity-off)=[1-9]|=ERRORS|=BROKEN|=FAILED|=NO$|^after=[^v]')
	if [ -n "$bad" ]; then
		grep -E '^  audit' "$work/out" | head -20
		fail "cut $i ($at): $(echo $bad)"
	else
		ok "cut $i ($at)"
	fi
done
cat "$table"
"$here/cut-summary" "$table"
finish "$fault cuts during $PC_TOOL upgrade ($fs, seed $seed, ${#instants[@]} cuts)"
