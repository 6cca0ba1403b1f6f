# SIGKILL (and SIGTERM, SIGHUP) at random moments while signing in place:
# each time the package is either the original, byte for byte, or
# completely signed (if the signal came after the rename), and no temporary
# file remains beside it.
. "$(dirname "$0")/lib.sh"
scratch
key rsa2048
for pkg in many kinds; do
	p=$(copy_pkg $pkg "$SCRATCH/$pkg")
	orig=$(sha "$p")
	start=$(date +%s%N)
	"$RPMVERITY" sign --key "$KEY" --cert "$CERT" -o "$SCRATCH" "$p" >/dev/null 2>&1 || fail "signing $pkg failed"
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
	signed=$(sha "$SCRATCH/$pkg.rpm")
	rm -f "$SCRATCH/$pkg.rpm"
	note "$pkg: signing takes $ms ms; killing at random moments within it"
	kills=0 originals=0
	for i in $(seq 0 11); do
		sig=KILL
		[ $((i % 4)) = 1 ] && sig=TERM
		[ $((i % 4)) = 3 ] && sig=HUP
		delay=$(( RANDOM % (ms + 20) ))
		"$RPMVERITY" sign --key "$KEY" --cert "$CERT" "$p" >/dev/null 2>&1 &
		pid=$!
		sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
		kill -$sig $pid 2>/dev/null && kills=$((kills + 1))
		wait $pid 2>/dev/null
		now=$(sha "$p")
		if [ "$now" = "$orig" ]; then
			originals=$((originals + 1))
		elif [ "$now" = "$signed" ]; then
			cp "$PKGS/$pkg.rpm" "$p"   # start again from the unsigned package
		else
			fail "$pkg: after SIG$sig at ${delay} ms the package is neither the original nor the signed one"
		fi
		[ "$(ls -A "$SCRATCH/$pkg")" = "$pkg.rpm" ] ||
			fail "$pkg: left after SIG$sig at ${delay} ms: $(ls -A "$SCRATCH/$pkg")"
	done
	note "$pkg: $kills kills landed, $originals left the original"
	[ $kills -ge 3 ] || fail "$pkg: too few kills landed during signing ($kills)"
	ok "$pkg: $kills kills during signing left the original or the signed package, nothing else"
done
finish "$TEST"
