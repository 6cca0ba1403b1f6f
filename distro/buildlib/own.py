"""The distribution's own packages (distro/specs) and rpm-verity's, built
from this source tree."""

import os
import shutil

from .cachekey import source_files
from .convert import built_rpms, canonical, rpmbuild
from .util import DISTRO, IMA_PLUGIN, TOP, run


def busybox_applets(taken):
    """Links for busybox's applets that no converted package already ships."""
    out = run(["busybox", "--list-full"])
    links = []
    for rel in out.split():
        path = canonical("/" + rel)
        # sh is bash and init is systemd; dpkg does not manage this system.
        if path not in taken and os.path.dirname(path) in ("/usr/bin", "/usr/sbin") \
                and path not in ("/usr/bin/sh", "/usr/sbin/init") \
                and os.path.basename(path) not in ("dpkg", "dpkg-deb", "busybox"):
            links.append(path)
    return sorted(set(links))


# The IPE policy distribution-keys carries when built for IPE: its name is
# the one later versions update (tests/distro/ipe.sh loads a 1.0.1 that
# revokes a digest), its version the first.
IPE_POLICY_NAME = "rpm-verity-distro"
IPE_POLICY_VERSION = "1.0.0"


def ipe_keys(top, src, keys, logs):
    """distribution-keys built for IPE (Linux 6.12) in a topdir of its own,
    with the IPE policy signed by the distribution's key, as a distribution
    signs its policy with a key its kernel's CA certified."""
    tool = os.path.join(TOP, "keys", "rpm-verity-ipe-policy")
    text = os.path.join(src, "ipe-policy.txt")
    with open(text, "w") as f:
        f.write(run([tool, "make", "--name", IPE_POLICY_NAME, "--version", IPE_POLICY_VERSION]))
    d = os.path.join(keys, "distribution")
    run([tool, "sign", "--key", f"{d}/signing-key.pem", "--cert", f"{d}/cert.pem",
         text, os.path.join(src, "ipe-policy.p7s")])
    ipe_top = top + "-ipe"
    os.makedirs(ipe_top)
    os.symlink(src, os.path.join(ipe_top, "SOURCES"))
    rpmbuild(os.path.join(DISTRO, "specs", "distribution-keys.spec"), ipe_top,
             ["enforcer ipe"], f"{logs}/keys-ipe.log")
    return built_rpms(ipe_top)


def build_own(work, taken, keys):
    """distro-base, distribution-keys, distro-release 1 and 2, untrusted-hello
    and rpm-verity's own RPMs; returns {repo: [rpm paths]}, where repo-ipe is
    repo with distribution-keys built for IPE."""
    top = os.path.join(work, "top", "own")
    src = os.path.join(top, "SOURCES")
    os.makedirs(src)
    with open(os.path.join(src, "busybox-links"), "w") as f:
        f.write("\n".join(busybox_applets(taken)) + "\n")
    shutil.copytree(os.path.join(DISTRO, "base"), os.path.join(src, "base"))
    shutil.copy(os.path.join(keys, "distribution", "cert.pem"), os.path.join(src, "distribution.pem"))
    shutil.copy(os.path.join(keys, "distribution", "cert.der"), os.path.join(src, "distribution.der"))
    shutil.copy(os.path.join(keys, "distribution-ima", "ima-cert.der"), os.path.join(src, "distribution-ima.der"))
    files = [os.path.relpath(os.path.join(TOP, n), TOP) for n in source_files()]
    tarball = os.path.join(src, "rpm-verity-0.1.0.tar.gz")
    run(["tar", "-C", TOP, "--transform", "s,^,rpm-verity-0.1.0/,", "-czf", tarball] + files)
    specs = os.path.join(DISTRO, "specs")
    logs = os.path.join(work, "logs")
    rpmbuild(os.path.join(specs, "distro-base.spec"), top, log=f"{logs}/distro-base.log")
    rpmbuild(os.path.join(specs, "distribution-keys.spec"), top, [f"ima_plugin {IMA_PLUGIN}"],
             f"{logs}/keys.log")
    rpmbuild(os.path.join(specs, "distro-release.spec"), top, ["release_version 1"], f"{logs}/rel1.log")
    rpmbuild(os.path.join(TOP, "rpm-verity.spec"), top, log=f"{logs}/rpm-verity.log")
    main = built_rpms(top)
    rpmbuild(os.path.join(specs, "distro-release.spec"), top, ["release_version 2"], f"{logs}/rel2.log")
    rpmbuild(os.path.join(specs, "untrusted-hello.spec"), top, log=f"{logs}/untrusted.log")
    every = set(built_rpms(top))
    updates = [p for p in every if "distro-release-2" in p]
    untrusted = [p for p in every if "untrusted-hello" in p]
    keys_ipe = ipe_keys(top, src, keys, logs)
    ipe = [p for p in main if not os.path.basename(p).startswith("distribution-keys-")] + keys_ipe
    return {"repo": main, "repo-ipe": ipe, "updates": updates, "untrusted": untrusted}
