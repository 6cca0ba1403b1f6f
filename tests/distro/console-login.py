#!/usr/bin/python3
"""Host side of console.sh: runs distro/console on IMAGE with its serial
console on a pipe, as a person at the terminal would use it: waits for the
getty's login prompt, logs in as root (password "root"), asks systemd how
the boot went, and powers off through systemd. Prints the console; exit 0
when the shell answered with systemd as PID 1 and a running system, and
QEMU ended after the poweroff.
usage: console-login.py CONSOLE IMAGE [TIMEOUT]
"""
import os
import select
import subprocess
import sys
import time

ANSWER = b"CONSOLE-42 "


def main():
    console, image = sys.argv[1], sys.argv[2]
    timeout = float(sys.argv[3]) if len(sys.argv) > 3 else 600
    proc = subprocess.Popen([console, image], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    script = [(b"login: ", b"root\n"), (b"assword: ", b"root\n"),
              (b"]# ", b"echo CONSOLE-$((6 * 7)) $(readlink /proc/1/exe)"
                       b" $(systemctl is-system-running --wait); systemctl poweroff\n")]
    seen, step = b"", 0
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([proc.stdout], [], [], 1)
        if ready:
            chunk = os.read(proc.stdout.fileno(), 4096)
            if not chunk:
                break
            sys.stdout.buffer.write(chunk)
            sys.stdout.flush()
            seen += chunk
        if step < len(script) and script[step][0] in seen[-200:]:
            proc.stdin.write(script[step][1])
            proc.stdin.flush()
            seen, step = b"", step + 1
        if proc.poll() is not None:
            seen += proc.stdout.read() or b""
            break
    else:
        proc.kill()
        print(f"\nconsole-login: no poweroff within {timeout:.0f} s (step {step})", file=sys.stderr)
        return 1
    proc.wait()
    line = next((l for l in seen.splitlines() if l.startswith(ANSWER)), b"").decode()
    print(f"\nconsole-login: answer '{line}', QEMU exit {proc.returncode}")
    return 0 if line == "CONSOLE-42 /usr/lib/systemd/systemd running" and proc.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
