# Host-side steps shared by the tests that boot a signed root from a disk
# image (boot-signed-root.sh: the certificates at boot; ipe-boot.sh: the IPE
# policy at boot): the rv-bootroot package (bootroot.spec) built and signed,
# a dracut base directory holding the system's modules and ours, initramfs
# images made with it, the root installed by the plugin in a first boot, and
# boots of that image through vm/run's disk-boot mode. Sourced by bash after
# tests/lib/testlib.sh, with $here (tests/vm) and $top set.
# shellcheck shell=bash disable=SC2154

# bootroot_setup NAME: checks go on after a failure; skips without QEMU or
# dracut; sets $build, $pkgs (ctest's fixtures), $loader and $cert, and
# $work, a directory removed at exit.
bootroot_setup() {
	keep_going
	needs_qemu
	command -v dracut >/dev/null || skip "no dracut (dracut-core)"
	build=${RPMVERITY_BUILD:?RPMVERITY_BUILD must name the build tree}
	pkgs=${RPMVERITY_PACKAGES:?RPMVERITY_PACKAGES must name make-packages.sh output}
	loader=$build/boot/rpm-verity-load-certs
	cert=$pkgs/trusted/cert.pem
	[ -x "$loader" ] || bail "$loader not built"
	work=$(mktemp -d "${TMPDIR:-/var/tmp}/$1.XXXXXX")
	at_exit "rm -rf '$work'"
}

# bootroot_package: $work/rv-bootroot.rpm, signed with the test key, and its
# payload unpacked in $work/payload (what check-installed compares with).
bootroot_package() {
	rpmbuild -bb --quiet --nodeps -D "_topdir $work/top" -D "disk_init $top/vm/disk-init" \
		-D "_binary_payload w1.zstdio" -D "debug_package %{nil}" -D "_build_id_links none" \
		"$here/bootroot.spec" >"$work/rpmbuild.log" 2>&1 || { cat "$work/rpmbuild.log"; bail "rpmbuild"; }
	mv "$work"/top/RPMS/x86_64/rv-bootroot-1-1.x86_64.rpm "$work/rv-bootroot.rpm"
	"$build/signer/rpm-verity" sign --key "$pkgs/trusted/signing-key.pem" --cert "$cert" \
		"$work/rv-bootroot.rpm" || bail "rpm-verity sign"
	mkdir "$work/payload" && (cd "$work/payload" && rpm2cpio "$work/rv-bootroot.rpm" | cpio -idm --quiet)
}

# dracut_base: $work/dracut, a dracut base directory of our own: the
# system's modules plus this build's 90rpm-verity.
dracut_base() {
	local e m
	mkdir -p "$work/dracut/modules.d"
	for e in /usr/lib/dracut/*; do [ "${e##*/}" = modules.d ] || ln -s "$e" "$work/dracut/"; done
	for m in /usr/lib/dracut/modules.d/*; do ln -s "$m" "$work/dracut/modules.d/"; done
	cp -r "$build/boot/dracut/90rpm-verity" "$work/dracut/modules.d/"
}

# mkinitrd KVER OUT MODULES...: a dracut image for a kernel without modules,
# loading $cert alone. The module's IMA and IPE inputs are none unless the
# caller's environment names them (the host's own never go in).
mkinitrd() {
	local kver=$1 out=$2 start=$SECONDS
	shift 2
	dracutbasedir=$work/dracut RPMVERITY_LOADER=$loader RPMVERITY_LOADER_ARGS="--no-config $cert" \
		RPMVERITY_IMA_CERTDIR=${RPMVERITY_IMA_CERTDIR:-$work/none} \
		RPMVERITY_IMA_POLICY=${RPMVERITY_IMA_POLICY:-$work/none} \
		RPMVERITY_IPE_POLICY=${RPMVERITY_IPE_POLICY:-$work/none} \
		dracut --quiet --no-kernel --kver "$kver" --no-hostonly --force -m "$*" "$out" \
		>"$work/dracut.log" 2>&1 || { cat "$work/dracut.log"; bail "dracut -m '$*'"; }
	echo "  $(basename "$out"): dracut -m '$*', $(du -h "$out" | cut -f1), $((SECONDS - start)) s"
}

# install_root: boot 1, in the usual 9p-root mode: boot-signed-root-guest.sh
# makes $work/root.img a btrfs and installs the signed package into it with
# the plugin under enforce.
install_root() {
	local rc
	RPMVERITY_VM_TIMEOUT=${RPMVERITY_VM_TIMEOUT:-300} \
		RPMVERITY_SCRATCH_IMG=$work/root.img RPMVERITY_SCRATCH_SIZE=1G \
		"$top/vm/run" "$here/boot-signed-root-guest.sh" "$work/rv-bootroot.rpm" "$work/payload" \
		>"$work/boot1.out" 2>&1
	rc=$?
	grep -E '^(ok|FAIL|BAIL|#) ' "$work/boot1.out" | sed 's/^/  /'
	[ $rc = 0 ] || { cat "$work/boot1.out"; bail "boot 1 (install) failed with $rc"; }
}

# disk_boot NAME INITRD|"" COMMAND...: boots root.img (its /init, vm/disk-init,
# runs COMMAND), sharing $work/share read-only; the console in
# $work/NAME.out, vm/run's status in $rc. The initramfs powers off rather than
# wait at a shell when it stops.
disk_boot() {
	local name=$1 initrd=$2
	shift 2
	env -u RPMVERITY_SCRATCH_IMG -u RPMVERITY_SCRATCH_IMG2 RPMVERITY_SCRATCH_SIZE=64M \
		RPMVERITY_VM_ROOT_IMG="$work/root.img" RPMVERITY_VM_SHARE="$work/share" \
		${initrd:+RPMVERITY_VM_INITRD="$initrd"} \
		RPMVERITY_VM_APPEND="init=/init rd.shell=0 rd.emergency=poweroff" \
		RPMVERITY_VM_TIMEOUT=180 "$top/vm/run" "$@" >"$work/$name.out" 2>&1
	rc=$?
}

# said NAME REGEX: the console of boot NAME has a line matching REGEX.
said() { grep -qE -- "$2" "$work/$1.out"; }
