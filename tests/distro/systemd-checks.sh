# shellcheck shell=bash
# Sourced by the distribution's guest scripts (boot-checks.guest, ima.guest,
# ipe.guest, after-reboot.guest), after testlib.sh: checks of the booted
# system as systemd runs it. Each is a group of ok/fail lines.

# systemd_up: PID 1 is systemd, which brought the system up to
# multi-user.target with no failed unit, and the daemons Fedora boots with
# run: journald, udevd, the system bus, logind.
systemd_up() {
	local state failed u
	[ "$(readlink /proc/1/exe)" = /usr/lib/systemd/systemd ] &&
		ok "PID 1 is systemd ($(systemctl --version | head -1)), a signed file of the root" ||
		fail "PID 1 is $(readlink /proc/1/exe)"
	state=$(timeout 120 systemctl is-system-running --wait 2>&1)
	failed=$(systemctl list-units --failed --plain --no-legend 2>&1)
	[ "$state" = running ] && [ -z "$failed" ] &&
		ok "systemctl is-system-running: running; no unit failed" ||
		fail "is-system-running: $state; failed: ${failed:-none}"
	systemctl is-active -q multi-user.target &&
		ok "multi-user.target reached in $(systemd-analyze 2>/dev/null | head -1 | sed 's/^Startup finished in //')" ||
		fail "multi-user.target: $(systemctl is-active multi-user.target)"
	for u in systemd-journald systemd-udevd dbus systemd-logind; do
		systemctl is-active -q $u.service && ok "$u.service is active" ||
			fail "$u.service: $(systemctl is-active $u.service)"
	done
	# (masked-runtime: a generator's mask lasts this boot only)
	[ "$(systemctl is-enabled serial-getty@ttyS0.service 2>&1)" = masked-runtime ] &&
		ok "the serial console is the job's: distro-job-generator masked its getty for this boot" ||
		fail "serial-getty@ttyS0 in a job boot: $(systemctl is-enabled serial-getty@ttyS0.service 2>&1)"
	[ "$(systemctl is-enabled getty@.service 2>&1)" = enabled ] &&
		ok "getty@.service is enabled by the distribution's presets" ||
		fail "getty@.service: $(systemctl is-enabled getty@.service 2>&1)"
}

# certs_unit: rpm-verity-load-certs.service, enabled by the presets, finds
# what the initramfs loaded (and restricted) and says so, loading nothing.
certs_unit() {
	local line
	line=$(journalctl -b -o cat -u rpm-verity-load-certs.service 2>&1 | grep -m1 'rpm-verity-load-certs: ')
	[ "$(systemctl show -P Result rpm-verity-load-certs.service)" = success ] &&
		systemctl is-active -q rpm-verity-load-certs.service &&
		echo "$line" | matches -E ': 0 added, [1-9][0-9]* already present, 0 failed' &&
		ok "rpm-verity-load-certs.service: nothing loaded twice: $line" ||
		fail "rpm-verity-load-certs.service ($(systemctl is-active rpm-verity-load-certs.service)): ${line:-no journal line}"
}

# audit_unit: the daily audit's timer is enabled and waiting, and when it
# fires, by itself, the audit it starts passes, its report in the journal.
# A runtime drop-in (gone at the next boot) adds a trigger 2 s after the
# timer restarts, without the hour's random delay or the minute's
# coalescing (AccuracySec); nothing here starts the service.
audit_unit() {
	local line t0 result before now dropin=/run/systemd/system/rpm-verity-audit.timer.d
	[ "$(systemctl is-enabled rpm-verity-audit.timer 2>&1)" = enabled ] &&
		systemctl is-active -q rpm-verity-audit.timer &&
		ok "rpm-verity-audit.timer is enabled and waiting: $(systemctl list-timers --no-legend rpm-verity-audit.timer | awk '{print "next", $1, $2, $3}')" ||
		fail "rpm-verity-audit.timer: $(systemctl is-enabled rpm-verity-audit.timer 2>&1), $(systemctl is-active rpm-verity-audit.timer)"
	before=$(systemctl show -P InvocationID rpm-verity-audit.service)
	mkdir -p $dropin
	printf '[Timer]\nOnActiveSec=2s\nRandomizedDelaySec=0\nAccuracySec=1s\n' >$dropin/soon.conf
	t0=$SECONDS
	systemctl daemon-reload && systemctl restart rpm-verity-audit.timer
	while now=$(systemctl show -P InvocationID rpm-verity-audit.service)
		[ "$now" = "$before" ] ||
			[ "$(systemctl show -P ActiveState rpm-verity-audit.service)" = activating ]; do
		[ $((SECONDS - t0)) -lt 300 ] || break
		sleep 1
	done
	rm -r $dropin
	systemctl daemon-reload && systemctl restart rpm-verity-audit.timer
	result=$(systemctl show -P Result rpm-verity-audit.service)
	line=$(journalctl -b -o cat -u rpm-verity-audit.service | grep '^audit: ' | tr '\n' ';')
	[ "$now" != "$before" ] && [ "$result" = success ] &&
		[ "$(echo "$line" | grep -o 'no problems' | wc -l)" = 2 ] &&
		ok "rpm-verity-audit.timer fired by itself; the service ran both audits clean, done $((SECONDS - t0)) s after the timer restarted: $line" ||
		fail "rpm-verity-audit.timer fired: $([ "$now" != "$before" ] && echo yes || echo "no, in 300 s"); service: $result; ${line:-no report in the journal}"
	echo "# what a sysadmin sees:"
	SYSTEMD_COLORS=0 systemctl status --no-pager -n 2 rpm-verity-load-certs.service \
		rpm-verity-audit.timer rpm-verity-audit.service 2>&1 | sed 's/^/#   /'
}

# denials_in KIND [JOURNALCTL-ARGS...]: the kernel's refusals (ima: IMA
# appraisal records, type 1800; ipe: IPE denials, type 1420) among the
# journal's kernel messages the arguments select.
denials_in() {
	local kind=$1
	shift
	case $kind in
	ima) journalctl -k -o cat "$@" | grep 'type=1800' ;;
	ipe) journalctl -k -o cat "$@" | grep 'type=1420' | grep 'action=DENY' ;;
	esac
}

# ask_reboot: when this job ends, run-job reboots through systemd
# (systemctl reboot). The next boot's job, after-reboot.guest, reads the
# shutdown from the persistent journal, from the cursor kept here on the
# root: what the journal holds after it is the shutdown's.
ask_reboot() {
	mkdir -p /var/lib/distro-test /run/distro-job
	journalctl -n 0 --show-cursor | sed -n 's/^-- cursor: //p' >/var/lib/distro-test/cursor
	[ -s /var/lib/distro-test/cursor ] || fail "journalctl gave no cursor"
	touch /run/distro-job/reboot
	echo "# asked run-job to reboot through systemd"
}
