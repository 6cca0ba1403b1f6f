# bench-setup.sh, sourced by bench/sign-bench and bench/split-sign-bench:
# the signing key and certificate of type $keytype (and the GPG key rpmsign
# insists on) and the real-content packages, built once with zstd level 19
# as Fedora does and cached in $cache. Needs $top, $cache, $work, $keytype
# and the scripts' die and log.
# Keys (signing key + certificate, and a GPG key rpmsign insists on).
keys=$cache/keys
if [ ! -e "$keys/$keytype/signing-key.pem" ]; then
	case $keytype in
	rsa2048) "$top/keys/rpm-verity-keygen" --type rsa --bits 2048 "$keys/$keytype" >/dev/null ;;
	p256) "$top/keys/rpm-verity-keygen" --type ecdsa --curve prime256v1 "$keys/$keytype" >/dev/null ;;
	*) die "--key must be rsa2048 or p256" ;;
	esac
fi
KEY=$keys/$keytype/signing-key.pem CERT=$keys/$keytype/cert.pem
export GNUPGHOME=$keys/gnupg
gpg_name="rpm-verity bench <bench@example.invalid>"
if [ ! -d "$GNUPGHOME" ]; then
	mkdir -p "$GNUPGHOME" && chmod 700 "$GNUPGHOME"
	gpg --batch --quiet --passphrase '' --quick-gen-key "$gpg_name" rsa2048 sign never 2>/dev/null
fi

# spec_head NAME: a benchmark spec up to its %install line.
spec_head() {
	cat <<EOF
Name: $1
Version: 1
Release: 1
Summary: rpm-verity benchmark package
License: various
AutoReqProv: no
%global __os_install_post %{nil}
%global _build_id_links none
%global debug_package %{nil}
%description
Benchmark content.
%install
EOF
}

# Packages, built once and cached (zstd -19 on 490 MB takes minutes).
build() {  # build NAME SPECBODY-FILE: $cache/NAME.rpm
	local name=$1 spec=$work/$1.spec rtop=$work/top-$1
	[ -s "$cache/$name.rpm" ] && return
	log "building $name.rpm (zstd level 19; cached in $cache afterwards)"
	{ spec_head "bench-$name"; cat "$2"; printf '%%files\n/bench\n'; } >"$spec"
	mkdir -p "$rtop"
	rpmbuild -bb --quiet --define "_topdir $rtop" --define "_binary_payload w19.zstdio" \
		"$spec" >"$work/$name.build.log" 2>&1 || { tail "$work/$name.build.log" >&2; die "rpmbuild $name failed"; }
	mv "$(find "$rtop/RPMS" -name '*.rpm' | head -1)" "$cache/$name.rpm"
	rm -rf "$rtop"
}
cat >"$work/real.install" <<'EOF'
mkdir -p %{buildroot}/bench
for d in /usr/lib/python3.[0-9]* /usr/lib/gcc /usr/share/locale; do
	mkdir -p %{buildroot}/bench$d
	cp -R --no-preserve=links "$d/." %{buildroot}/bench$d/
done
EOF
cat >"$work/small.install" <<'EOF'
mkdir -p %{buildroot}/bench
cd %{buildroot}/bench
python3 - <<'PY'
import os
src = []
for base in ("/usr/lib/python3", "/usr/share/doc", "/usr/include"):
    for root, dirs, files in os.walk(base):
        for f in files:
            p = os.path.join(root, f)
            if os.path.isfile(p) and not os.path.islink(p) and 0 < os.path.getsize(p) <= 16384:
                src.append(p)
src.sort()
for i in range(20000):
    d = "d%%03d" %% (i // 1000)
    os.makedirs(d, exist_ok=True)
    with open(src[i %% len(src)], "rb") as f:
        data = f.read()
    with open("%%s/f%%05d" %% (d, i), "wb") as o:
        o.write(data + b"\n# %%d\n" %% i)
PY
EOF
[[ ,${sets:-real,small}, == *,real,* ]] && build real "$work/real.install"
[[ ,${sets:-real,small}, == *,small,* ]] && build small "$work/small.install"

# build_batch N: N packages of various sizes in $cache/batch (b001.rpm...):
# 1 to 300 files each, 8 KiB to 4 MiB of real files from /usr (log-uniform,
# so most are small as most distribution packages are), zstd level 3
# (the level barely changes decompression speed, and builds 200 quickly).
build_batch() {
	local n=$1 i rtop spec=$work/batch.spec
	mkdir -p "$cache/batch"
	[ "$(find "$cache/batch" -name '*.rpm' | wc -l)" -ge "$n" ] && return
	log "building $n batch packages (cached in $cache/batch afterwards)"
	{ spec_head 'bench-batch-%{idx}'; cat <<'SPEC'; } >"$spec"
mkdir -p %{buildroot}/bench/%{idx}
cd %{buildroot}/bench/%{idx}
/usr/bin/python3 - %{idx} %{srclist} <<'PY'
import os, random, shutil, sys
rng = random.Random(int(sys.argv[1]))
budget = int(8192 * 512 ** rng.random())
nfiles = rng.randint(1, 300)
src = open(sys.argv[2]).read().split("\n")[:-1]
rng.shuffle(src)
used = 0
for i, p in enumerate(src):
    if i >= nfiles or used >= budget:
        break
    size = os.path.getsize(p)
    if used + size > budget * 1.2 and i > 0:
        continue
    shutil.copyfile(p, "f%03d" % i)
    used += size
PY
%files
/bench
SPEC
	# the candidate files, listed once rather than in every build
	python3 - >"$work/srclist" <<'PY'
import os
for base in ("/usr/lib/x86_64-linux-gnu", "/usr/share/doc", "/usr/lib/python3"):
    for root, dirs, files in sorted(os.walk(base)):
        for f in sorted(files):
            p = os.path.join(root, f)
            if os.path.isfile(p) and not os.path.islink(p):
                print(p)
PY
	for ((i = 1; i <= n; i++)); do
		[ -s "$cache/batch/b$(printf %03d "$i").rpm" ] && continue
		rtop=$work/top-batch
		mkdir -p "$rtop"
		rpmbuild -bb --quiet --define "_topdir $rtop" --define "idx $i" --define "srclist $work/srclist" \
			--define "_binary_payload w3.zstdio" "$spec" >"$work/batch.log" 2>&1 ||
			{ tail "$work/batch.log" >&2; die "rpmbuild batch $i failed"; }
		mv "$(find "$rtop/RPMS" -name '*.rpm' | head -1)" "$cache/batch/b$(printf %03d "$i").rpm"
		rm -rf "$rtop"
	done
}
