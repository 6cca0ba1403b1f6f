"""The distribution's cache key: a hash of everything the build reads, so a
build is reused exactly while its inputs are unchanged."""

import hashlib
import os
import subprocess

from .util import TOP, run


def source_files():
    """rpm-verity's sources: what git tracks or would (not what it ignores), or
    every file when not a checkout."""
    r = subprocess.run(["git", "-C", TOP, "ls-files", "-z", "--cached", "--others", "--exclude-standard"], capture_output=True)
    if r.returncode == 0 and r.stdout:
        names = [n.decode() for n in r.stdout.split(b"\0") if n]
    else:
        names = []
        for d, dirs, files in os.walk(TOP):
            dirs[:] = [x for x in dirs if not x.startswith((".", "build"))]
            names += [os.path.relpath(os.path.join(d, f), TOP) for f in files]
    return sorted(n for n in names if os.path.isfile(os.path.join(TOP, n)))


def affects_build(name):
    """Whether a source file can change what the distribution holds: tests,
    benchmarks, the VM harness, the scripts that drive builds and tests
    (scripts/, .ci/, upstream-rpm/, shipped-rpm/), distro/make-root and docs
    cannot (rpm-verity.spec builds no test), so editing them keeps the cached
    distribution."""
    if name.endswith(".md") or name.startswith(("bench/", "vm/", "kernel-patches/", "scripts/",
                                                ".ci/", "upstream-rpm/", "shipped-rpm/")):
        return False
    if name.startswith("distro/"):
        return name in ("distro/build", "distro/packages") or \
            name.startswith(("distro/specs/", "distro/base/", "distro/buildlib/"))
    return not name.startswith("tests/") or name.endswith("CMakeLists.txt")


def cache_key(chosen, pkgs, ca):
    h = hashlib.sha256()
    with open(ca, "rb") as f:
        h.update(b"ca\0" + hashlib.sha256(f.read()).digest())
    for name in filter(affects_build, source_files()):
        h.update(name.encode() + b"\0")
        with open(os.path.join(TOP, name), "rb") as f:
            h.update(hashlib.sha256(f.read()).digest())
    for name in sorted(chosen):
        h.update(f"{name}={pkgs[name]['version']}\n".encode())
    h.update(run(["rpm", "--version"]).encode())
    return h.hexdigest()[:16]
