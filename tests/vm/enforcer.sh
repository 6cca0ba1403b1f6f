#!/bin/bash
# rpm-verity-enforcer (enforcer/) in the guest: the BPF LSM that runs a file
# only when its fs-verity digest is the one the installed packages signed
# for the path it runs from. On 7.3-fedora (builtin signatures off, as
# Fedora, RHEL and openSUSE build their kernels) it is the only check of our
# signatures; on 7.3 it runs beside the kernel's. Packages signed by
# rpm-verity are installed on btrfs with verity.so, the table is loaded
# from their rpmdb, and then:
#   controls: the packages' static and dynamic binaries, a #! script and a
#     library (dlopen, and a private mapping made executable) run;
#   refused, each with the enforcer's log line (path, digest found, digest
#     signed): a hand-made binary on btrfs, /tmp, /dev/shm and /run, from a
#     memfd and through ld.so; a copy of a signed binary re-enabled by an
#     unprivileged user with its public signature; the signed inode hard-
#     linked and moved to an unowned path; two installed binaries swapped;
#     an older version's file at the path of the newer one; a signed file of
#     a package that is not installed; a file of a package signed by a key
#     not trusted; an unsigned and a verity copy of the library (dlopen,
#     LD_PRELOAD); a #! script in /tmp; a private mapping of the signed
#     library written to and then made executable;
#   the plugin keeps the table current: after rpm -U the new version runs,
#     after rpm -e the erased path runs nothing;
#   what root can still do: remove the pins, which detaches the programs;
#     then warn mode logs and refuses nothing.
# The guest's own programs come from the host over 9p: the enforcer is
# loaded with --exempt-fs 9p, and everything else (btrfs, tmpfs) is judged.
# usage: enforcer.sh   (host side: boots the guest RPMVERITY_KERNEL names, or
# skips when it has no BPF LSM; needs $RPMVERITY_BUILD, $RPMVERITY_PACKAGES)
if [ "${1:-}" != --guest ]; then
	here=$(cd "$(dirname "$0")" && pwd)
	top=$(cd "$here/../.." && pwd)
	. "$here/../lib/testlib.sh"
	needs_qemu
	needs_bpf_lsm_kernel "$top"
	exec "$top/vm/run" "$0" --guest "$@"
fi
shift
. "$(dirname "$0")/lib.sh"
need_build
ENF=$BUILD/enforcer/rpm-verity-enforcer
[ -x "$ENF" ] || bail "$ENF: not built"
. "$VMT_DIR/../distro/probes.sh"
mountpoint -q /sys/kernel/security || mount -t securityfs securityfs /sys/kernel/security
mountpoint -q /sys/fs/bpf || mount -t bpf bpf /sys/fs/bpf || bail "cannot mount bpffs"
echo "# kernel $(uname -r), LSMs: $(cat /sys/kernel/security/lsm)"
check "bpf is an active LSM" grep -qw bpf /sys/kernel/security/lsm
check "the kernel has BTF" test -r /sys/kernel/btf/vmlinux
if keyctl describe %keyring:.fs-verity >/dev/null 2>&1; then
	builtin=1
	echo "# this kernel checks builtin signatures (.fs-verity exists)"
else
	builtin=0
	echo "# this kernel does not check builtin signatures (no .fs-verity keyring)"
fi
RPMV_DEFINES=(--define "_fsverity_boot_loader_warning 0")
T=/tmp/enforcer-work
mkdir -p $T
LOG=$T/enforcer.log

mnt=/tmp/enforcer-btrfs
mkfs_mount btrfs "$SCRATCH_DEV" "$mnt"
new_root "$mnt"
bin=$mnt/usr/bin
lib=$mnt/usr/lib64/libvm-ipe.so.1

echo "# install, before the enforcer is loaded"
check "rpm -i vm-ipe and vm-demo-1 under enforce" rpmv enforce -i "$PKGS/vm-ipe-1.rpm" "$PKGS/vm-demo-1.rpm"
if [ $builtin = 0 ]; then
	check "the plugin says nothing checks the signatures here" \
		rpm_said "this kernel has no .fs-verity keyring: it does not check fs-verity signatures; certificates not loaded, and nothing checks"
fi
if [ $builtin = 0 ]; then
	out=$("$BUILD/boot/rpm-verity-load-certs" --no-config "$CERT" 2>&1)
	check_eq "rpm-verity-load-certs: nothing to load is no failure here" "$?" 0
	check "and it says why, naming the enforcer ($out)" \
		bash -c "[[ '$out' == *'checks no fs-verity signature'*'rpm-verity-enforcer'* ]]"
fi
# Signed by a key no configured certificate holds: the kernel (where it
# checks) refuses it, so warn installs it without verity; without the
# check, with verity.
check "rpm -i vm-other (untrusted signer) under warn" rpmv warn -i "$PKGS/vm-other-1.rpm"
for f in $bin/vm-ipe-static $bin/vm-ipe-true $bin/vm-ipe-hello $lib $bin/vm-demo-true; do
	check "${f#$mnt} has verity" has_verity "$f"
done

echo "# load: the table from the rpmdb, every signature checked first"
"$ENF" load --root "$mnt" --dbpath /var/lib/rpm --cert "$CERT" --exempt-fs 9p >$T/load.out 2>&1
rc=$?
sed 's/^/  load: /' $T/load.out
check_eq "rpm-verity-enforcer load" "$rc" 0
check "it names vm-other's files as signed by none of the certificates" \
	grep -qE "untrusted.*/usr/bin/vm-other-true" $T/load.out
"$ENF" log >$LOG 2>&1 &
logger=$!
"$ENF" status >$T/status.out
sed 's/^/  status: /' $T/status.out
check "status: enforce" grep -qx "mode: enforce" $T/status.out
nbound=$(sed -n 's/^bound: //p' $T/status.out)
check "status: the table holds the bound files" test "${nbound:-0}" -ge 8
check_fails "a second load is refused while one is loaded" "$ENF" load --root "$mnt" --cert "$CERT"

# refused_logged HOOK PATH REASON: the enforcer's log line for PATH.
refused_logged() {
	local i
	for i in 1 2 3 4 5 6 7 8 9 10; do
		grep -F "refused $1 of $2 by" $LOG | grep -qF "$3" && return 0
		sleep 0.3
	done
	grep -F "$2" $LOG | sed 's/^/  logged: /'
	return 1
}
refused() { # NAME PATH [HOOK REASON]: exec of PATH refused and logged
	check_eq "$1: exec refused (EACCES)" "$(run_status "$2")" EACCES
	check "$1: logged" refused_logged "${3:-exec}" "$2" "${4:-}"
}

echo "# controls: the packages' code runs"
check_eq "the static binary runs" "$(run_status "$bin/vm-ipe-static")" ok
check_eq "the dynamic binary runs (its libc on the exempt 9p root)" "$(run_status "$bin/vm-ipe-true")" ok
check_eq "the #! script runs" "$("$bin/vm-ipe-hello" 2>&1)" "hello from vm-ipe"
check_eq "the library loads by dlopen" "$(dlopen_status "$lib")" ok
check_eq "vm-demo-1's binary runs" "$(run_status "$bin/vm-demo-true")" ok

# mprotect_status LIB WRITE: a private mapping of LIB made executable,
# written to first when WRITE is 1: "ok" or the errno name.
mprotect_status() {
	python3 - "$1" "$2" <<'PY'
import ctypes, errno, mmap, sys
f = open(sys.argv[1], "rb")
m = mmap.mmap(f.fileno(), 4096, flags=mmap.MAP_PRIVATE, prot=mmap.PROT_READ | mmap.PROT_WRITE)
if sys.argv[2] == "1":
    m[0:1] = b"\x90"
addr = ctypes.addressof(ctypes.c_char.from_buffer(m))
libc = ctypes.CDLL(None, use_errno=True)
libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
r = libc.mprotect(addr, 4096, mmap.PROT_READ | mmap.PROT_EXEC)
print("ok" if r == 0 else errno.errorcode.get(ctypes.get_errno(), "?"))
PY
}
# 6.12's verifier does not trust vma->vm_file: the loader then refuses every
# file mapping made executable by mprotect, and says so.
if grep -q "cannot name the file of a mapping" $T/load.out; then
	strict=1
	check_eq "6.12: a private mapping of the signed library made executable is refused too" \
		"$(mprotect_status "$lib" 0)" EACCES
else
	strict=0
	check_eq "a private mapping of the signed library, unwritten, made executable" \
		"$(mprotect_status "$lib" 0)" ok
fi

echo "# hand-made code, wherever it is written"
mkdir -p "$mnt/usr/local/bin" "$mnt/usr/local/lib64"
cp "$bin/vm-ipe-static" "$mnt/usr/local/bin/copy"
cp "$bin/vm-ipe-static" /tmp/enf-copy
cp "$bin/vm-ipe-static" /dev/shm/enf-copy
cp "$bin/vm-ipe-static" /run/enf-copy
cp "$bin/vm-ipe-true" /tmp/enf-true
chmod 755 "$mnt/usr/local/bin/copy" /tmp/enf-copy /dev/shm/enf-copy /run/enf-copy /tmp/enf-true
refused "a copy on btrfs" "$mnt/usr/local/bin/copy" exec "no fs-verity; digest none"
refused "a copy on /tmp" /tmp/enf-copy exec "no fs-verity"
refused "a copy on /dev/shm" /dev/shm/enf-copy exec "no fs-verity"
refused "a copy on /run" /run/enf-copy exec "no fs-verity"
check_eq "from a memfd: refused" "$(memfd_status "$bin/vm-ipe-static")" EACCES
check "from a memfd: logged" refused_logged exec "/memfd:intruder (deleted)" "no fs-verity"
out=$(/lib64/ld-linux-x86-64.so.2 /tmp/enf-true 2>&1)
check "through ld.so: the loader cannot map it ($out)" bash -c "[[ '$out' == *'failed to map segment'* ]]"
check "through ld.so: logged as an executable mapping" refused_logged "mmap PROT_EXEC" /tmp/enf-true "no fs-verity"
printf '#!/bin/sh\necho intruding\n' >/tmp/enf-script
chmod 755 /tmp/enf-script
refused "a #! script in /tmp" /tmp/enf-script exec "no fs-verity"

echo "# signed content at a path it was not signed for"
sig=$T/vm-ipe-static.sig
fsverity dump_metadata signature "$bin/vm-ipe-static" >$sig
check "the public signature of vm-ipe-static, read from the file" test -s $sig
want=$(fsverity measure "$bin/vm-ipe-static" | cut -d' ' -f1)
mkdir -p "$mnt/home/user"
chown 65534:65534 "$mnt/home/user"
chmod 644 $sig
setpriv --reuid=65534 --regid=65534 --clear-groups sh -c \
	"cp '$bin/vm-ipe-static' '$mnt/home/user/resigned' && fsverity enable --signature='$sig' '$mnt/home/user/resigned'"
check_eq "an unprivileged user re-enabled a copy with the public signature: same digest" \
	"$(fsverity measure "$mnt/home/user/resigned" | cut -d' ' -f1)" "$want"
refused "that copy" "$mnt/home/user/resigned" exec "no installed package signed this path; digest $want, signed none"
ln "$bin/vm-ipe-static" "$mnt/usr/local/bin/hardlink"
refused "the signed inode hard-linked to an unowned path" "$mnt/usr/local/bin/hardlink" exec "digest $want"
check_eq "and still runs at its own path" "$(run_status "$bin/vm-ipe-static")" ok
mv "$bin/vm-ipe-true" "$mnt/usr/local/bin/moved"
refused "the signed vm-ipe-true moved to an unowned path" "$mnt/usr/local/bin/moved"
mv "$mnt/usr/local/bin/moved" "$bin/vm-ipe-true"
check_eq "moved back, it runs" "$(run_status "$bin/vm-ipe-true")" ok
mv "$bin/vm-ipe-static" "$mnt/swap" && mv "$bin/vm-ipe-true" "$bin/vm-ipe-static" &&
	mv "$mnt/swap" "$bin/vm-ipe-true"
refused "two installed binaries swapped (vm-ipe-true at vm-ipe-static's path)" "$bin/vm-ipe-static" exec "not the content signed for this path; digest"
refused "two installed binaries swapped (vm-ipe-static at vm-ipe-true's path)" "$bin/vm-ipe-true" exec "not the content signed for this path; digest $want"
mv "$bin/vm-ipe-static" "$mnt/swap" && mv "$bin/vm-ipe-true" "$bin/vm-ipe-static" &&
	mv "$mnt/swap" "$bin/vm-ipe-true"
check_eq "swapped back, both run" "$(run_status "$bin/vm-ipe-static")$(run_status "$bin/vm-ipe-true")" okok
# Where the kernel checks, it refused the signature and warn installed the
# file without verity; where it does not, with verity and an untrusted
# signature, which no binding names.
refused "a file of vm-other (signed by a key not trusted)" "$bin/vm-other-true" exec "signed none"

echo "# libraries"
cp "$lib" "$mnt/usr/local/lib64/libvm-ipe.so.1"
cp "$lib" "$mnt/usr/local/lib64/libvm-ipe-verity.so.1"
fsverity enable "$mnt/usr/local/lib64/libvm-ipe-verity.so.1"
check "dlopen of an unsigned copy of the library fails" \
	bash -c "[ '$(dlopen_status "$mnt/usr/local/lib64/libvm-ipe.so.1")' != ok ]"
check "logged" refused_logged "mmap PROT_EXEC" "$mnt/usr/local/lib64/libvm-ipe.so.1" "no fs-verity"
check "dlopen of a verity copy at an unowned path fails" \
	bash -c "[ '$(dlopen_status "$mnt/usr/local/lib64/libvm-ipe-verity.so.1")' != ok ]"
check "logged" refused_logged "mmap PROT_EXEC" "$mnt/usr/local/lib64/libvm-ipe-verity.so.1" "no installed package signed this path"
out=$(LD_PRELOAD=$mnt/usr/local/lib64/libvm-ipe.so.1 "$bin/vm-ipe-true" 2>&1)
check "LD_PRELOAD of the unsigned copy: ld.so cannot map it ($out)" \
	bash -c "[[ '$out' == *'cannot be preloaded'* ]]"
check_eq "a private mapping of the signed library written to, then made executable" \
	"$(mprotect_status "$lib" 1)" EACCES
if [ $strict = 1 ]; then
	check "logged" refused_logged "mprotect PROT_EXEC" "(no path)" "cannot name a mapping's file"
else
	check "logged" refused_logged "mprotect PROT_EXEC" "$lib" "a written private mapping"
fi

echo "# the plugin keeps the table current: upgrade, an old version, erase"
ln "$bin/vm-demo-hello" "$mnt/usr/local/bin/hello-v1"
check "rpm -U vm-demo-2 with the enforcer loaded" rpmv enforce -U "$PKGS/vm-demo-2.rpm"
if [ $builtin = 0 ]; then
	check "the plugin says it checks the signatures, and the enforcer runs them" \
		rpm_said "does not check fs-verity signatures; the plugin checks them against %_fsverity_certs, and rpm-verity-enforcer runs"
fi
check_eq "the new version's script runs" "$("$bin/vm-demo-hello" 2>&1)" "hello from vm-demo"
check "it is version 2" grep -q "vm-demo 2 script" "$bin/vm-demo-hello"
refused "version 1's script, kept by a hard link" "$mnt/usr/local/bin/hello-v1"
mv "$mnt/usr/local/bin/hello-v1" "$bin/vm-demo-hello"
refused "version 1's script put back at its path" "$bin/vm-demo-hello" exec "not the content signed for this path"
check "rpm -U --replacepkgs vm-demo-2 repairs it" rpmv enforce -U --replacepkgs "$PKGS/vm-demo-2.rpm"
check_eq "version 2 runs again" "$(run_status "$bin/vm-demo-hello")" ok
ln "$bin/vm-demo-true" "$mnt/usr/local/keep-true"
ln "$bin/vm-demo-hello" "$mnt/usr/local/keep-hello"
fsverity dump_metadata signature "$bin/vm-demo-hello" >$T/hello.sig
check "rpm -e vm-demo" rpmv enforce -e vm-demo
ln "$mnt/usr/local/keep-true" "$bin/vm-demo-true"
refused "the erased package's signed binary, linked back at its path" "$bin/vm-demo-true" exec "no installed package signed this path"
cp "$mnt/usr/local/keep-hello" "$bin/vm-demo-hello"
check "a signed file of a package that is not installed, made again with its public signature" \
	fsverity enable --signature=$T/hello.sig "$bin/vm-demo-hello"
refused "that file at the path its package would install it" "$bin/vm-demo-hello" exec "no installed package signed this path"

echo "# what root can still do: remove the pins (detaches the programs)"
rm -rf /sys/fs/bpf/rpm-verity-enforcer
check_eq "unpinned: the hand-made copy runs" "$(run_status /tmp/enf-copy)" ok
check_eq "status says not loaded" "$("$ENF" status)" "not loaded"
kill $logger 2>/dev/null
wait $logger 2>/dev/null
"$ENF" load --warn --root "$mnt" --dbpath /var/lib/rpm --cert "$CERT" --exempt-fs 9p -q 2>/dev/null
check "warn mode loads" grep -qx "mode: warn" <("$ENF" status)
"$ENF" log >$LOG 2>&1 &
logger=$!
check_eq "warn: the hand-made copy runs" "$(run_status /tmp/enf-copy)" ok
for i in 1 2 3 4 5 6 7 8 9 10; do
	grep -qF "would refuse (warn) exec of /tmp/enf-copy" $LOG && break
	sleep 0.3
done
check "warn: and is logged as it would be refused" grep -qF "would refuse (warn) exec of /tmp/enf-copy" $LOG
kill $logger 2>/dev/null
wait $logger 2>/dev/null
rm -rf /sys/fs/bpf/rpm-verity-enforcer
sed 's/^/  log: /' $LOG | head -5
finish "rpm-verity-enforcer"
