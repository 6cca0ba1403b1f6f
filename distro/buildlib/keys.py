"""The distribution's signing keys: the fs-verity and IMA keys, made once,
whose certificates the guest kernel's test CA signs, as the kernel's
.fs-verity (restricted by rpm-verity-load-certs) and .ima keyrings require."""

import os
import shutil
import subprocess

from .util import TOP, die, run, say


def kernel_ca():
    """The test CA built into the guest kernels (vm/build-kernel makes it,
    one for 6.1 and 6.12; vm/kernel-ca says where): .ima takes only
    certificates a key on the kernel's builtin keyring signed, so the
    distribution's certificates must chain to it."""
    r = subprocess.run([os.path.join(TOP, "vm", "kernel-ca")], capture_output=True, text=True)
    if r.returncode != 0:
        die(f"{r.stderr.strip()}; run vm/build-kernel first (the distribution's "
            "certificates must be signed by the CA the guest kernels trust)")
    prefix = r.stdout.strip()
    return prefix + ".pem", prefix + ".key"


def make_keys(cache, ca, ca_key):
    keys = os.path.join(cache, "keys")
    keygen = os.path.join(TOP, "keys", "rpm-verity-keygen")
    # "untrusted" is signed by the CA too: what makes it untrusted is that
    # the distribution does not ship its certificate.
    # The names are what keyctl shows on .fs-verity and .ima (ima.guest
    # looks for the IMA key's).
    for k, extra, cert, cn in (("distribution", [], "cert", "distribution"),
                               ("untrusted", [], "cert", "untrusted"),
                               ("distribution-ima", ["--ima"], "ima-cert", "IMA")):
        d = os.path.join(keys, k)
        pem = os.path.join(d, f"{cert}.pem")
        if os.path.exists(pem) and subprocess.run(["openssl", "verify", "-CAfile", ca, pem],
                                                  capture_output=True).returncode != 0:
            say(f"{pem}: not signed by {ca} (a new kernel CA, or made before "
                "the keyring was restricted): making a new key")
            shutil.rmtree(d)
        if not os.path.exists(os.path.join(d, f"{cert}.der")):
            shutil.rmtree(d, ignore_errors=True)
            run([keygen] + extra + ["--ca", ca, "--ca-key", ca_key, "--subject",
                                    f"/CN=rpm-verity distro {cn} key/", "--days", "36500", d])
    return keys
