"""Signing the repositories with the rpm-verity just packaged, and the
manifest of what each package signed."""

import hashlib
import os
import subprocess
import tempfile

from .checks import file_rule, signable
from .util import run


def signer_from(rpm_verity_rpm, work):
    """The rpm-verity just packaged signs the distribution: a package that
    builds but cannot sign is caught here."""
    d = os.path.join(work, "signer")
    os.makedirs(d)
    subprocess.run(f"rpm2cpio '{rpm_verity_rpm}' | cpio -idm --quiet", shell=True, cwd=d, check=True)
    return os.path.join(d, "usr", "bin", "rpm-verity")


def manifest(signer, repo):
    """What each package signed: one line per file the plugin protects (as
    SIGNER's `verify --list` says, executable %config files included), with the
    fs-verity digest of its payload bytes, a hash of its signature entry and
    a hash of its IMA signature (hex, as security.ima must hold it; "-" for
    none).
    The VM tests compare the booted system against it (measured digests,
    signatures in the rpmdb); `rpm-verity verify` has already checked that
    each signature covers that digest."""
    lines = []
    for rpm in sorted(os.listdir(repo)):
        if not rpm.endswith(".rpm"):
            continue
        path = os.path.join(repo, rpm)
        out = run(["rpm", "-qp", "--qf", "%{NAME}\x1e[%{FILENAMES}\x1f"
                   "%{VERITYSIGNATURES}\x1f%{FILESIGNATURES}\x1e]", path])
        name, *entries = out.split("\x1e")
        rule = file_rule(signer, path)
        files = {}
        for e in entries:
            if e.count("\x1f") != 2:
                continue
            fname, sig, ima = e.split("\x1f")
            ima = "" if ima == "(none)" else ima  # how rpm prints a missing entry
            if rule[fname][1]:
                files[fname] = (hashlib.sha256("".join(sig.split()).encode()).hexdigest()[:16],
                                hashlib.sha256(ima.lower().encode()).hexdigest()[:16] if ima else "-")
        if not files:
            continue
        with tempfile.TemporaryDirectory(dir=os.path.dirname(repo)) as d:
            subprocess.run(f"rpm2cpio '{path}' | cpio -idm --quiet", shell=True, cwd=d, check=True)
            names = sorted(files)
            digests = {}
            for i in range(0, len(names), 500):
                out = run(["fsverity", "digest"] + [d + f for f in names[i:i + 500]])
                for line in out.splitlines():
                    digest, fpath = line.split(" ", 1)
                    digests[fpath[len(d):]] = digest
        for f in names:
            lines.append(f"{name}\t{f}\t{digests[f]}\t{files[f][0]}\t{files[f][1]}\n")
    with open(os.path.join(repo, "..", os.path.basename(repo) + ".manifest"), "w") as m:
        m.writelines(lines)


def sign_repo(signer, repo_dir, keys, ima, jobs):
    """Signs every package in REPO_DIR with the fs-verity key in KEYS and, when
    IMA (a key directory) is given, IMA sigv3 signatures too; verifies them,
    indexes the repository and writes its manifest."""
    names = sorted(os.path.join(repo_dir, f) for f in os.listdir(repo_dir))
    ima_sign = ["--ima-key", f"{ima}/ima-key.pem", "--ima-cert", f"{ima}/ima-cert.pem"] if ima else []
    ima_verify = ["--ima-cert", f"{ima}/ima-cert.pem"] if ima else []
    run([signer, "sign", "--key", f"{keys}/signing-key.pem", "--cert", f"{keys}/cert.pem",
         "-j", str(jobs)] + ima_sign + names)
    run([signer, "verify", "--cert", f"{keys}/cert.pem"] + ima_verify +
        [n for n in names if signable(signer, n)])
    run(["createrepo_c", "--quiet", "--workers", str(jobs), repo_dir])
    manifest(signer, repo_dir)
