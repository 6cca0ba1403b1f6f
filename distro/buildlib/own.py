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
        # sh is bash and init is distro-base's; dpkg does not manage this system.
        if path not in taken and os.path.dirname(path) in ("/usr/bin", "/usr/sbin") \
                and path not in ("/usr/bin/sh", "/usr/sbin/init") \
                and os.path.basename(path) not in ("dpkg", "dpkg-deb", "busybox"):
            links.append(path)
    return sorted(set(links))


def build_own(work, taken, keys):
    """distro-base, distribution-keys, distro-release 1 and 2, untrusted-hello
    and rpm-verity's own RPMs; returns {repo: [rpm paths]}."""
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
    return {"repo": main, "updates": updates, "untrusted": untrusted}
