#!/bin/bash
# replay.sh TARGET DIR...: runs every file in the DIRs (those that exist)
# through a fuzz target once, whether it was built with libFuzzer or with
# replay_main.c. Fails when the target crashes, leaks or aborts, or when
# there is nothing to replay (a corpus that silently vanished tests nothing).
. "$(dirname "$0")/../lib/testlib.sh"
set -euo pipefail
target=$1
shift
files=()
for d in "$@"; do
	[ -d "$d" ] || continue
	while IFS= read -r -d '' f; do
		files+=("$f")
	done < <(find "$d" -type f ! -name 'README*' -print0 | sort -z)
done
[ ${#files[@]} -gt 0 ] || fail "replay: no inputs in $*"
echo "replaying ${#files[@]} inputs through ${target##*/}"
# Batches keep command lines short; each batch is one process.
for ((i = 0; i < ${#files[@]}; i += 200)); do
	"$target" "${files[@]:i:200}" >/dev/null
done
