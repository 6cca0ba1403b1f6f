#!/usr/bin/python3
"""Runs in the booted distribution: every file the plugin protects (a
regular file, not %ghost, not a %config file without an execute bit) has
fs-verity on, its measured digest is the one
in the distribution's manifest (distro/build: the digest its package signed,
which rpm-verity verify checked against the signature), the rpmdb holds
that package's signature for it, and, where the package carries an IMA
signature, the file's security.ima is that signature (rpm's ima.so wrote it). Prints one line per failure and a summary;
exit 1 on any failure.

usage: check-protected.py MANIFEST [PACKAGE...]   (default: every package)
"""
import array
import fcntl
import hashlib
import os
import subprocess
import sys

FS_IOC_MEASURE_VERITY = 0xC0046686  # _IOWR('f', 134, struct fsverity_digest)


def measure(path):
    buf = array.array("B", (0, 0, 64, 0) + (0,) * 64)  # le16 alg, le16 size=64
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    try:
        fcntl.ioctl(fd, FS_IOC_MEASURE_VERITY, buf, True)
    finally:
        os.close(fd)
    alg = buf[0] | buf[1] << 8
    size = buf[2] | buf[3] << 8
    name = {1: "sha256", 2: "sha512"}.get(alg, f"alg{alg}")
    return f"{name}:{bytes(buf[4:4 + size]).hex()}"


def protected(perms, flags):
    """The plugin's rule (common/file_rule.h) with its default settings,
    written out again on purpose: the manifest comes from the signer's own
    `verify --list`, and this side checks the booted system against the
    rule as documented, not against the same code."""
    executable = any(perms[i] in "xst" for i in (3, 6, 9))
    return perms.startswith("-") and "g" not in flags and ("c" not in flags or executable)


def main():
    manifest, wanted = sys.argv[1], sys.argv[2:]
    signed = {}
    with open(manifest) as f:
        for line in f:
            pkg, path, digest, sig, ima = line.rstrip("\n").split("\t")
            signed[(pkg, path)] = (digest, sig, ima)
    qf = "%{NAME}\x1e[%{FILENAMES}\x1f%{FILEFLAGS:fflags}\x1f%{FILEMODES:perms}\x1f%{VERITYSIGNATURES}\x1e]\x1d"
    out = subprocess.run(["rpm", "-q" if wanted else "-qa", "--qf", qf] + wanted,
                         capture_output=True, text=True, check=True).stdout
    failures = checked = skipped = ima_checked = 0
    for block in out.split("\x1d"):
        if not block.strip():
            continue
        name, *entries = block.split("\x1e")
        for e in entries:
            if e.count("\x1f") != 3:
                continue
            path, flags, perms, sig = e.split("\x1f")
            if not protected(perms, flags):
                skipped += 1
                continue
            checked += 1
            want = signed.get((name, path))
            if want is None:
                print(f"FAIL - {name}: {path} is not in the manifest")
                failures += 1
                continue
            try:
                got = measure(path)
            except OSError as err:
                print(f"FAIL - {name}: {path}: no fs-verity digest ({err.strerror})")
                failures += 1
                continue
            if got != want[0]:
                print(f"FAIL - {name}: {path}: measured {got}, signed {want[0]}")
                failures += 1
            sighash = hashlib.sha256("".join(sig.split()).encode()).hexdigest()[:16]
            if sighash != want[1]:
                print(f"FAIL - {name}: {path}: the rpmdb's signature is not the package's")
                failures += 1
            if want[2] != "-":
                ima_checked += 1
                try:
                    xattr = os.getxattr(path, "security.ima", follow_symlinks=False).hex()
                except OSError as err:
                    xattr = f"none ({err.strerror})"
                if hashlib.sha256(xattr.encode()).hexdigest()[:16] != want[2]:
                    print(f"FAIL - {name}: {path}: security.ima is not the package's IMA signature: {xattr[:24]}")
                    failures += 1
    print(f"# {checked} protected files checked, {ima_checked} of them with IMA signatures "
          f"({skipped} directories, links, %ghost or non-executable %config skipped), {failures} failures")
    if checked == 0:
        print("FAIL - no protected file found")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
