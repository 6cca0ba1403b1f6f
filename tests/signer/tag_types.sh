# Tags 274-277 in a signed package's signature header with every type rpm
# stores (CHAR ... I18NSTRING) and counts 1, the file count and one more
# (rpm stores no count 0, nor a STRING of more than one), run through every
# command that reads them: verify (--cert, and --ima-cert for 274/275),
# strip, sign, digests, inject, the plugin's install (rpm with the ioctl
# shim, %_fsverity_policy enforce) and audit (an rpmdb made with --justdb).
# Each must succeed, or refuse with exit 1 or 2 naming the package and the
# reason; a crash (exit >= 128) or a sanitizer report fails. What each
# shape should give is in the table below (want), from the tag's one valid
# shape and the shapes rpm itself reads a package with.
# Found with it: `verify` read tag 277 without its type (SIGSEGV on INT16).
# SEEDS=DIR keeps each package as a fuzz_package input and its signature
# header as a fuzz_package_sigs one (how tests/fuzz/*/tag* were made).
. "$(dirname "$0")/lib.sh"
: "${VERITY_TAG_EDIT:?}" "${PLUGIN_BUILD:?set by ctest}" "${SHIM:?}"
scratch
key rsa2048
ima=(--ima-key "$KEY" --ima-cert "$CERT")

base=$(copy_pkg plain "$SCRATCH/base")
"$RPMVERITY" digests "$base" >"$SCRATCH/manifest" 2>/dev/null || fail "digests of plain"
"$RPMVERITY" sign-digests --key "$KEY" --cert "$CERT" "${ima[@]}" \
	-o "$SCRATCH/sigs" "$SCRATCH/manifest" 2>/dev/null || fail "sign-digests of plain"
expect_ok "sign plain" "$RPMVERITY" sign --key "$KEY" --cert "$CERT" "${ima[@]}" "$base"
nfiles=$(qf "$base" '[%{FILENAMES}\n]' | wc -l)
nevra=$(qf "$base" '%{NEVRA}')
[ "$nfiles" -gt 2 ] || fail "plain has $nfiles files; the counts need more than 2"

# want TAG TYPE COUNT TOOL: ok, refuse, any (either, without crashing),
# or the exit status audit must give.
want() {
	local tag=$1 type=$2 count=$3 tool=$4 valid=0 rpm_reads=0
	case $tag:$type:$count in
	27[46]:STRING_ARRAY:$nfiles | 27[57]:INT32:1) valid=1 ;;
	esac
	# rpm 4.18 reads a package only with these tags in their own type
	# ("invalid signature tag"), so the plugin and the rpmdb see no other.
	case $tag:$type:$count in
	27[46]:STRING_ARRAY:* | 27[57]:INT32:1) rpm_reads=1 ;;
	esac
	case $tool:$tag in
	strip:* | sign:* | digests:* | inject:*) echo ok ;;
	plugin:*) [ $rpm_reads = 0 ] && echo refuse ||
		case $tag in 27[45]) echo any ;; *) [ $valid = 1 ] && echo ok || echo refuse ;; esac ;;
	# The host has no verity: usable tags give verity-off problems (1),
	# unusable fs-verity tags are an error (2); IMA ones are left out.
	audit:27[67]) [ $valid = 1 ] && echo 1 || echo 2 ;;
	audit:27[45]) echo 1 ;;
	# IMA tags are not verify --cert's business.
	verify:27[45]) echo any ;;
	*) [ $valid = 1 ] && echo ok || echo refuse ;;
	esac
}

failures=0 cases=0
bad() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}

# judge CASE TOOL WANT PKG: the last run against the table.
judge() {
	local c=$1 tool=$2 w=$3 pkg=$4
	cases=$((cases + 1))
	if [ "$RC" -ge 128 ] || grep -q 'runtime error\|Sanitizer' "$ERR" "$OUT"; then
		bad "$c: $tool crashed (exit $RC): $(grep -m1 'runtime error\|ERROR:' "$ERR" "$OUT")"
		return
	fi
	case $w in
	ok) [ "$RC" = 0 ] || bad "$c: $tool refused (exit $RC): $(head -c 300 "$ERR")" ;;
	refuse) [ "$RC" = 1 ] || [ "$RC" = 2 ] ||
			bad "$c: $tool accepted it (exit $RC)" ;;
	any) ;;
	*) [ "$RC" = "$w" ] || bad "$c: $tool exit $RC, want $w: $(head -c 300 "$ERR")" ;;
	esac
	if [ "$RC" != 0 ] && [ "$w" != 1 ] && [ "$w" != 0 ] &&
	   ! grep -q -F -e "$pkg" -e "$nevra" "$ERR" "$OUT"; then
		bad "$c: $tool failed without naming $pkg or $nevra: $(head -c 300 "$ERR")"
	fi
}

# A clang build's sanitized plugin cannot be loaded into Debian's rpm (its
# ASan runtime is not gcc's, which rpm-driver and the preload use), so
# that build leaves the plugin's column to the gcc build, as it leaves
# the plugin tests (scripts/test).
plugin_installs=${TAG_TYPES_PLUGIN:-1}
[ "$plugin_installs" = 1 ] ||
	note "the plugin's install is not run in this build (TAG_TYPES_PLUGIN=0)"

rpm_with_plugin() {
	env LD_PRELOAD="${VERITY_TEST_PRELOAD:-} $SHIM" \
		ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0 \
		LSAN_OPTIONS="suppressions=$TOOLS_DIR/lsan.supp:print_suppressions=0" \
		"${VERITY_TEST_RPM:-rpm}" --root "$1" --dbpath /var/lib/rpm \
		--nodeps "${RPM_INSTALL_OPTS[@]}" --noscripts \
		--define "__plugindir $PLUGIN_BUILD" \
		--define "__transaction_verity %{__plugindir}/verity.so" \
		--define "_fsverity_policy enforce" -i "$2"
}

# one TAG TYPE COUNT: make the package and run every tool on a copy.
one() {
	local tag=$1 type=$2 count=$3 c="tag $1 $2 x$3" d=$SCRATCH/case p root
	rm -rf "$d" && mkdir -p "$d"
	p=$d/$nevra.rpm
	run "$VERITY_TAG_EDIT" "$base" "$p" --put "$tag" "$type" "$count" \
		--seed "$d/sighdr"
	[ "$RC" = 3 ] && { echo "  $c: rpm stores no such tag"; return; }
	[ "$RC" = 0 ] || fail "$c: verity-tag-edit: $(cat "$ERR")"
	if [ -n "${SEEDS:-}" ]; then
		mkdir -p "$SEEDS/fuzz_package" "$SEEDS/fuzz_package_sigs"
		cp "$p" "$SEEDS/fuzz_package/tag$tag-${type,,}-x$count"
		cp "$d/sighdr" "$SEEDS/fuzz_package_sigs/tag$tag-${type,,}-x$count"
	fi
	cp "$p" "$d/orig.rpm"
	fresh() { cp "$d/orig.rpm" "$p"; }

	run "$RPMVERITY" verify --cert "$CERT" "$p"
	judge "$c" verify "$(want "$tag" "$type" "$count" verify)" "$p"
	run "$RPMVERITY" verify --cert "$CERT" --ima-cert "$CERT" "$p"
	judge "$c" "verify --ima-cert" "$(want "$tag" "$type" "$count" verify-ima)" "$p"
	cmp -s "$p" "$d/orig.rpm" || bad "$c: verify changed the package"

	run "$RPMVERITY" strip "$p"
	judge "$c" strip "$(want "$tag" "$type" "$count" strip)" "$p"
	if [ "$RC" = 0 ] && "$RPMVERITY" verify --cert "$CERT" "$p" >/dev/null 2>&1
	then
		bad "$c: strip left signatures that verify"
	fi

	fresh
	run "$RPMVERITY" sign --key "$KEY" --cert "$CERT" "${ima[@]}" "$p"
	judge "$c" sign "$(want "$tag" "$type" "$count" sign)" "$p"
	[ "$RC" != 0 ] || "$RPMVERITY" verify --cert "$CERT" --ima-cert "$CERT" "$p" \
		>/dev/null 2>&1 || bad "$c: the re-signed package does not verify"

	fresh
	run "$RPMVERITY" digests "$p"
	judge "$c" digests "$(want "$tag" "$type" "$count" digests)" "$p"
	cmp -s "$OUT" "$SCRATCH/manifest" || [ "$RC" != 0 ] ||
		bad "$c: digests differ from the unmodified package's"

	run "$RPMVERITY" inject --cert "$CERT" --ima-cert "$CERT" "$SCRATCH/sigs" "$p"
	judge "$c" inject "$(want "$tag" "$type" "$count" inject)" "$p"
	[ "$RC" != 0 ] || "$RPMVERITY" verify --cert "$CERT" --ima-cert "$CERT" "$p" \
		>/dev/null 2>&1 || bad "$c: the injected package does not verify"

	fresh
	if [ "$plugin_installs" = 1 ]; then
		root=$d/root
		mkdir -p "$root"
		rpm --root "$root" --dbpath /var/lib/rpm --initdb
		run rpm_with_plugin "$root" "$p"
		judge "$c" plugin "$(want "$tag" "$type" "$count" plugin)" "$p"
	fi

	root=$d/dbroot
	mkdir -p "$root"
	rpm --root "$root" --dbpath /var/lib/rpm --initdb
	if ! rpm --root "$root" --dbpath /var/lib/rpm --justdb --nodeps \
		"${RPM_INSTALL_OPTS[@]}" -i "$p" >/dev/null 2>&1; then
		[ "$(want "$tag" "$type" "$count" plugin)" = refuse ] ||
			bad "$c: rpm --justdb refused it"
		return
	fi
	(cd "$root" && rpm2cpio "$p" | cpio -idm --quiet) || fail "$c: unpack"
	run "$RPMVERITY" audit --root "$root" --dbpath /var/lib/rpm --cert "$CERT"
	judge "$c" audit "$(want "$tag" "$type" "$count" audit)" "$p"
}

for tag in ${TAGS:-274 275 276 277}; do
	for type in CHAR INT8 INT16 INT32 INT64 STRING BIN STRING_ARRAY I18NSTRING; do
		for count in 0 1 "$nfiles" $((nfiles + 1)); do
			one "$tag" "$type" "$count"
		done
	done
done
note "$cases results checked, $failures wrong"
[ "$failures" = 0 ] || fail "$failures results differ from the table (above)"
note "every tag, type and count refused with a reason or handled"
finish "$TEST"
