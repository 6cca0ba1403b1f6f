"""Turns one installed Debian package into an RPM: its files staged under
their merged-/usr paths, a generated spec, rpmbuild."""

import os
import re
import shutil
import subprocess

from .util import die, run


PAYLOAD = "w3.zstdio"  # zstd level 3: Fedora's format, a fraction of level 19's time
# Left out of every converted package, as dpkg's path-exclude does on small
# systems: documentation and translations nobody reads on a test system.
EXCLUDE = re.compile(r"^/usr/share/(doc|man|info|locale|lintian|bug|doc-base)(/|$)")
# Directories the distro-base package owns (and the merged-/usr links).
BASE_DIRS = {"/", "/bin", "/sbin", "/lib", "/lib64", "/usr", "/usr/bin", "/usr/sbin",
             "/usr/lib", "/usr/lib64", "/usr/share", "/etc", "/var", "/var/lib",
             "/usr/lib/x86_64-linux-gnu", "/usr/libexec", "/usr/include", "/run", "/tmp"}


def rpm_evr(debver):
    """Debian's [epoch:]upstream[-revision] as rpm's Epoch, Version, Release."""
    epoch, _, rest = debver.rpartition(":")
    upstream, _, revision = rest.rpartition("-")
    if not upstream:
        upstream, revision = revision, "0"
    clean = lambda s: re.sub(r"[^A-Za-z0-9._+~^]", "_", s)
    return epoch, clean(upstream), clean(revision) + ".rv"


def canonical(path):
    """PATH with its directory resolved: /bin/sh becomes /usr/bin/sh on a
    merged-/usr machine. The final component is kept as it is."""
    d, base = os.path.split(path)
    return os.path.join(os.path.realpath(d), base)


def spec_path(p):
    """A path as a %files line takes it, literally: no macros, no globs.
    rpm globs a path only when it holds a glob character, and takes a
    backslash literally otherwise (systemd's unit names have them:
    system-systemd\\x2dcryptsetup.slice), so backslashes are escaped only
    along with glob characters."""
    p = p.replace("%", "%%")
    if re.search(r"[\[\]*?{}]", p):
        p = re.sub(r'([\[\]*?{}\\])', r"\\\1", p)
    return f'"{p}"'


def conffiles(name):
    out = subprocess.run(["dpkg-query", "-W", "-f", "${Conffiles}\n", name],
                         capture_output=True, text=True).stdout
    return {canonical(line.split()[0]) for line in out.splitlines() if line.strip()}


def stage_package(name, root):
    """Copies the package's installed files into ROOT under their canonical
    paths; returns (files, dirs, old /bin and /sbin names they had)."""
    paths = run(["dpkg-query", "-L", name]).splitlines()
    files, dirs, aliases, inodes = [], [], [], {}
    for path in paths:
        if path in ("/.", "") or EXCLUDE.match(path):
            continue
        try:
            st = os.lstat(path)
        except FileNotFoundError:
            continue  # diverted, or removed by dpkg's path-exclude
        dest = canonical(path)
        if EXCLUDE.match(dest):
            continue
        target = root + dest
        if os.path.isdir(path) and not os.path.islink(path):
            if dest not in BASE_DIRS and dest not in dirs:
                os.makedirs(target, exist_ok=True)
                os.chmod(target, st.st_mode & 0o7777)
                dirs.append(dest)
            continue
        if dest in files:
            continue
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if os.path.islink(path):
            link = os.readlink(path)
            if not link.startswith("/"):
                # Re-aim relative links: the link itself may have moved.
                abs_target = canonical(os.path.normpath(os.path.join(os.path.dirname(path), link)))
                link = os.path.relpath(abs_target, os.path.dirname(dest))
            os.symlink(link, target)
        elif (st.st_dev, st.st_ino) in inodes and st.st_nlink > 1:
            os.link(inodes[(st.st_dev, st.st_ino)], target)
        else:
            shutil.copy2(path, target)
            os.chmod(target, st.st_mode & 0o7777)
            inodes[(st.st_dev, st.st_ino)] = target
        files.append(dest)
        if dest != path and re.match(r"^/s?bin/[^/]+$", path):
            aliases.append(path)
    return files, dirs, aliases


# The generated spec. Requires are Debian's Depends (by name, within the
# closure) plus what rpm's generators find: ELF sonames and symbol versions,
# script interpreters. Interpreters nothing here ships are dropped: perl
# (skipped), dash (a libgcrypt helper script), /usr/local/bin/python (an
# example script in Python's standard library); and pkg-config, which rpm's
# generator asks for beside the .pc files of systemd and udev, for building
# software against them (nothing here does).
SPEC_HEAD = """\
%global debug_package %{{nil}}
%global __os_install_post %{{nil}}
%global _build_id_links none
%global __requires_exclude ^(/usr/bin/perl|perl\\\\(.*|/bin/dash|/usr/local/bin/python|/usr/bin/pkg-config)$
Name: {name}
{epoch}Version: {version}
Release: {release}
Summary: {summary}
License: see /usr/share/doc/{name}/copyright in Debian
{requires}{provides}
%description
Debian's {name} {debver}, converted by rpm-verity's distro/build.

%install
cp -a {stage}/. %{{buildroot}}/

%files
%defattr(-,root,root,-)
"""


def write_deb_spec(name, info, needs, stage, files, dirs, aliases, conf, spec):
    epoch, version, release = rpm_evr(info["version"])
    requires = "".join(f"Requires: {n}\n" for n in needs)
    provides = "".join(f"Provides: {a}\n" for a in aliases)
    if name == "libc6":
        # rpm's ELF generator requires it of every binary; Fedora's glibc
        # provides it by hand as well.
        provides += "Provides: rtld(GNU_HASH)\n"
    summary = (info["summary"] or name).replace("%", "%%")
    body = SPEC_HEAD.format(name=name, epoch=f"Epoch: {epoch}\n" if epoch else "",
                            version=version, release=release, summary=summary,
                            requires=requires, provides=provides, debver=info["version"],
                            stage=stage)
    lines = [f"%dir {spec_path(d)}" for d in dirs]
    for f in files:
        lines.append((f"%config(noreplace) " if f in conf else "") + spec_path(f))
    with open(spec, "w") as out:
        out.write(body + "\n".join(lines) + "\n")


def rpmbuild(spec, topdir, defines=(), log=None):
    cmd = ["rpmbuild", "-bb", "--nodeps", "-D", f"_topdir {topdir}",
           "-D", f"_binary_payload {PAYLOAD}"]
    for d in defines:
        cmd += ["-D", d]
    r = subprocess.run(cmd + [spec], capture_output=True, text=True)
    if log:
        with open(log, "w") as f:
            f.write(r.stdout + r.stderr)
    if r.returncode != 0:
        die(f"rpmbuild {spec} failed:\n{(r.stdout + r.stderr)[-4000:]}")


def built_rpms(top):
    return sorted(os.path.join(d, f) for d, _, fs in os.walk(os.path.join(top, "RPMS"))
                  for f in fs if f.endswith(".rpm"))


def convert(name, info, needs, work):
    stage = os.path.join(work, "stage", name)
    os.makedirs(stage)
    files, dirs, aliases = stage_package(name, stage)
    spec = os.path.join(work, "specs", f"{name}.spec")
    write_deb_spec(name, info, needs, stage, files, dirs, aliases, conffiles(name), spec)
    top = os.path.join(work, "top", name)
    rpmbuild(spec, top, log=os.path.join(work, "logs", f"{name}.log"))
    shutil.rmtree(stage)
    return built_rpms(top)
