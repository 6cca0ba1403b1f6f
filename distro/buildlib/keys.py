"""The distribution's signing keys: fs-verity keys made once, and the IMA key
whose certificate the guest kernel's test CA signs."""

import os
import shutil
import subprocess

from .util import TOP, die, run, say


def kernel_ca():
    """The test CA built into the guest kernel (vm/build-kernel makes it):
    .ima takes only certificates a key on the kernel's builtin keyring
    signed, so the distribution's IMA certificate must chain to it."""
    d = os.path.join(run([os.path.join(TOP, "vm", "cache-dir")]).strip(), "kernel", "default")
    ca, key = os.path.join(d, "trusted-ca.pem"), os.path.join(d, "trusted-ca.key")
    if not (os.path.isfile(ca) and os.path.isfile(key)):
        die(f"{ca}: no kernel test CA; run vm/build-kernel first (the IMA "
            "certificate must be signed by the CA the guest kernel trusts)")
    return ca, key


def make_keys(cache, ca, ca_key):
    keys = os.path.join(cache, "keys")
    keygen = os.path.join(TOP, "keys", "rpm-verity-keygen")
    for k in ("distribution", "untrusted"):
        if not os.path.exists(os.path.join(keys, k, "cert.der")):
            run([keygen, "--subject", f"/CN=rpm-verity distro {k} key/", "--days", "36500",
                 os.path.join(keys, k)])
    ima = os.path.join(keys, "distribution-ima")
    cert = os.path.join(ima, "ima-cert.pem")
    if os.path.exists(cert) and subprocess.run(["openssl", "verify", "-CAfile", ca, cert],
                                               capture_output=True).returncode != 0:
        say(f"{cert}: not signed by {ca} (a new kernel CA): making a new IMA key")
        shutil.rmtree(ima)
    if not os.path.exists(os.path.join(ima, "ima-cert.der")):
        shutil.rmtree(ima, ignore_errors=True)
        run([keygen, "--ima", "--ca", ca, "--ca-key", ca_key, "--subject",
             "/CN=rpm-verity distro IMA key/", "--days", "36500", ima])
    return keys
