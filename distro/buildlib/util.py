"""Shared by distro/build's parts: where the tree is, how the build reports
and fails, and running a command whose failure ends the build."""

import os
import subprocess
import sys


TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DISTRO = os.path.join(TOP, "distro")
# rpm's own IMA plugin (Debian's rpm-common), which writes each file's IMA
# signature as security.ima at install; distribution-keys enables it.
IMA_PLUGIN = "/usr/lib/x86_64-linux-gnu/rpm-plugins/ima.so"


def die(msg):
    print(f"distro/build: {msg}", file=sys.stderr, flush=True)
    sys.exit(1)


def say(msg):
    print(f"distro/build: {msg}", file=sys.stderr, flush=True)


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        die(f"{' '.join(cmd[:3])}... failed ({r.returncode}):\n{r.stdout[-3000:]}{r.stderr[-3000:]}")
    return r.stdout


def du(path):
    return sum(os.lstat(os.path.join(d, f)).st_size for d, _, fs in os.walk(path) for f in fs)
