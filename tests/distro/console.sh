#!/bin/bash
# A person at the distribution's serial console: distro/console boots a copy
# of the root with no test job, systemd starts agetty on ttyS0, and root logs
# in through it (console-login.py), finds systemd as PID 1 with the system
# running, and powers off through systemd. Host side; needs root and QEMU;
# boots once.
. "$(dirname "$0")/lib.sh"
distro_setup
fresh_copy console
python3 "$DT_DIR/console-login.py" "$TOP/distro/console" "$WORK/console.img" 600 >"$WORK/console.out" 2>&1
rc=$?
grep -E 'login:|CONSOLE-42|console-login:' "$WORK/console.out" | tr -d '\r' | tail -4 | sed 's/^/  /'
if [ $rc = 0 ]; then
	ok "root logged in on the serial console through agetty, systemd running, and powered off through systemd"
else
	tail -30 "$WORK/console.out"; fail "the console login (status $rc)"
fi
said console 'Reached target.*Power-Off|reboot: Power down' && ok "the poweroff went through systemd" ||
	fail "no sign of systemd's poweroff on the console"
finish distro-console
