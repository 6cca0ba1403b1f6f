# Sourced by the ENOSPC tests (fault-enospc.sh, kernel-enospc-rollback.sh):
# fills a filesystem to an exact level with pieces of one size, so that a
# binary search over their number finds the level where a file's data fits
# and its Merkle tree does not.
# fill_pieces DIR SIZE N: exactly N files of SIZE bytes in DIR (made or removed)
fill_pieces() {
	local dir=$1 size=$2 n=$3 i
	for ((i = 0; i < n; i++)); do
		[ -e "$dir/p$i" ] || fallocate -l "$size" "$dir/p$i" 2>/dev/null || return 1
	done
	for ((; ; i++)); do
		[ -e "$dir/p$i" ] || break
		rm "$dir/p$i"
	done
	sync
}
