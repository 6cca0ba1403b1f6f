"""Which Debian packages the distribution holds: the roots and skips of
distro/packages, and the installed packages they depend on."""

import os
import re

from .util import DISTRO, die, run


def read_package_list():
    roots, skip = [], set()
    path = os.path.join(DISTRO, "packages")
    with open(path) as f:
        for n, line in enumerate(f, 1):
            words = line.split("#")[0].split()
            if not words:
                continue
            if len(words) != 2 or words[0] not in ("root", "skip"):
                die(f"{path}:{n}: want 'root PACKAGE' or 'skip PACKAGE'")
            (roots.append if words[0] == "root" else skip.add)(words[1])
    return roots, skip


def installed_packages():
    fmt = "${Package}\t${db:Status-Abbrev}\t${Version}\t${Pre-Depends}, ${Depends}\t${Provides}\t${Description}\n"
    out = run(["dpkg-query", "-W", "-f", fmt])
    pkgs, provides = {}, {}
    for line in out.splitlines():
        fields = line.split("\t")
        if len(fields) < 6 or not fields[1].startswith("ii"):
            continue
        name, _, version, deps, prov, desc = fields[:6]
        pkgs[name] = {"version": version, "deps": deps, "summary": desc.strip()}
        for p in prov.split(","):
            p = p.strip().split(" ")[0].split(":")[0]
            if p:
                provides.setdefault(p, name)
    return pkgs, provides


def closure(roots, skip, pkgs, provides):
    """The packages the roots need, and for each the names its Requires get."""
    chosen, todo = {}, list(roots)
    while todo:
        name = todo.pop()
        if name in chosen or name in skip:
            continue
        if name not in pkgs:
            die(f"{name}: not installed here (distro/packages needs it; add it to scripts/install-deps)")
        needs = []
        for group in pkgs[name]["deps"].split(","):
            alts = [re.sub(r"[ (].*", "", a.strip()).split(":")[0] for a in group.split("|")]
            alts = [a for a in alts if a]
            if not alts or any(a in skip for a in alts):
                continue
            pick = next((a for a in alts if a in pkgs), None) or \
                next((provides[a] for a in alts if a in provides), None)
            if pick is None:
                die(f"{name}: no installed package satisfies '{group.strip()}'")
            if pick not in skip and pick != name:
                needs.append(pick)
                todo.append(pick)
        chosen[name] = sorted(set(needs))
    return chosen
