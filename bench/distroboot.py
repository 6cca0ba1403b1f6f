"""What the distribution's benchmarks (distro-bench, enforcer-bench) share:
running a command, the environment vm/run gets for the chosen clock,
booting a root image from its own disk under systemd to the job, and
reading systemd-analyze's figures off the console."""
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def sh(cmd, env=None, check=True, who="bench"):
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if check and r.returncode != 0:
        sys.exit(f"{who}: {' '.join(cmd[:2])} failed ({r.returncode}):\n{r.stdout[-3000:]}{r.stderr[-3000:]}")
    return r.stdout + r.stderr


def vm_env(clock, **extra):
    """vm/run's environment: no scratch images of the caller's, the counted
    clock (QEMU -icount, one instruction per ns) unless CLOCK is "host"."""
    env = dict(os.environ)
    for k in ("RPMVERITY_SCRATCH_IMG", "RPMVERITY_SCRATCH_IMG2", "RPMVERITY_VM_ICOUNT"):
        env.pop(k, None)
    if clock == "icount":
        env["RPMVERITY_VM_ICOUNT"] = "shift=0"
    env.setdefault("RPMVERITY_VM_TIMEOUT", "3600")
    env.update(extra)
    return env


def boot(clock, root, initrd, share, append, job=(), who="bench", **extra):
    """Boots ROOT through INITRD with SHARE on /run/rvshare and runs JOB
    (a script there, read by bash); returns the guest's uptime when the job
    started (run-job's "booted in") and the console's text."""
    out = sh([os.path.join(TOP, "vm", "run"), *job],
             vm_env(clock, RPMVERITY_VM_ROOT_IMG=root, RPMVERITY_VM_INITRD=initrd,
                    RPMVERITY_VM_SHARE=share, RPMVERITY_SCRATCH_SIZE="64M",
                    RPMVERITY_VM_APPEND=f"rd.shell=0 rd.emergency=poweroff {append}", **extra),
             who=who)
    m = re.findall(r"run-job: booted in ([\d.]+)s", out)
    if not m:
        sys.exit(f"{who}: {root} did not boot ({append or 'with its policy'}):\n{out[-3000:]}")
    return float(m[-1]), out


def seconds(text):
    """A systemd time span ("1min 2.345s", "870ms") in seconds."""
    units = {"min": 60.0, "s": 1.0, "ms": 1e-3, "us": 1e-6}
    parts = re.findall(r"([\d.]+)(min|ms|us|s)\b", text)
    if not parts:
        raise ValueError(f"not a time span: {text!r}")
    return sum(float(n) * units[u] for n, u in parts)


# The figures of analyze() the benches print, with their labels.
ANALYZED = (("kernel", "kernel+initrd (s)"), ("multi-user", "to multi-user (s)"))


def analyze(out):
    """systemd-analyze's figures, as run-job printed them: the kernel's part
    (the initramfs included: it is not systemd's), userspace's, and when the
    default target (multi-user.target) was reached in userspace; None when
    it did not say."""
    m = re.search(r"run-job: Startup finished in (.*?) \(kernel\) \+ (.*?) \(userspace\) = .*?"
                  r"[\w.-]+\.target reached after (.*?) in userspace", out)
    if not m:
        return None
    return {"kernel": seconds(m.group(1)), "userspace": seconds(m.group(2)),
            "multi-user": seconds(m.group(3))}
