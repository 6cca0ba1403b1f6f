#!/bin/bash
# kernel-patches/series-list, the one reader of our kernel series files, on a
# series made here: comments and blank lines are skipped, patches come in the
# series' order, a Subject: folded over two lines comes back whole and
# without its [PATCH n/m] prefix, a listed patch that is missing is an error
# naming it, and variant names map to the versions that have series.
. "$(dirname "$0")/../lib/testlib.sh"
keep_going
L=$(cd "$(dirname "$0")/../../kernel-patches" && pwd)/series-list
scratch
T=$SCRATCH

printf 'From 0 Mon Sep 17 00:00:00 2001\nSubject: [PATCH 2/2] btrfs: a subject long enough\n to be folded\nDate: x\n\nbody\nSubject: not this one\n' >"$T/b.patch"
printf 'Subject: fsverity: short\n\nbody\n' >"$T/a.patch"
printf '# comment\n\nb.patch   # trailing comment\n  a.patch\n' >"$T/series"

check_eq "paths in the series' order" "$("$L" "$T/series")" "$T/b.patch
$T/a.patch"
check_eq "subjects unfolded, prefix dropped" "$("$L" -s "$T/series" | cut -f2)" \
	"btrfs: a subject long enough to be folded
fsverity: short"

echo 'gone.patch' >>"$T/series"
expect_fail "a missing patch" "lists 'gone.patch', which is not readable" "$L" "$T/series"
expect_fail "a missing series" "$T/none: series file not readable" "$L" "$T/none"

for v in default:6.1 6.1:6.1 6.12:6.12 6.12-stock:6.12 7.3-stock:7.3 unpatched:6.1; do
	check_eq "variant ${v%%:*} builds ${v#*:}" "$("$L" -v "${v%%:*}")" "${v#*:}"
done
check_eq "6.1's directory is kernel-patches/" "$("$L" -d 6.1)" "$(dirname "$L")"
check_eq "7.3's series is kernel-patches/7.3/series" \
	"$("$L" 7.3 | head -1 | xargs dirname)" "$(dirname "$L")/7.3"
finish series_list
