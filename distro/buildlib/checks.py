"""What the repository must satisfy before it is published: every Requires
met, and which packages carry something to sign."""

from .util import die, run


def check_closure(rpms):
    """Every Requires of every package is met by the repository: dnf would
    otherwise find out only in the guest."""
    provided, files = set(), set()
    requires = {}
    for batch in range(0, len(rpms), 50):
        part = rpms[batch:batch + 50]
        out = run(["rpm", "-qp", "--qf", "[P %{PROVIDENAME}\n][F %{FILENAMES}\n][R %{REQUIRENAME}\n]N %{NAME}\n"] + part)
        reqs = []
        for line in out.splitlines():
            kind, _, value = line.partition(" ")
            if kind == "P":
                provided.add(value)
            elif kind == "F":
                files.add(value)
            elif kind == "R":
                reqs.append(value)
            elif kind == "N":
                requires[value], reqs = reqs, []
    missing = []
    for name, reqs in sorted(requires.items()):
        for r in reqs:
            if r.startswith("rpmlib(") or r in provided or r in files:
                continue
            missing.append(f"{name} requires {r}")
    if missing:
        die("the repository does not satisfy its own requires:\n  " + "\n  ".join(missing))


def signable(rpm):
    """Whether the package has a file rpm-verity signs: a regular file, not
    %config or %ghost. Packages of directories and links alone (gcc-12-base
    without its docs) carry no signature, and verify says so as an error."""
    out = run(["rpm", "-qp", "--qf", "[%{FILEMODES:perms} %{FILEFLAGS:fflags}\\n]", rpm])
    return any(line.startswith("-") and not set(line.split(" ")[1]) & set("cg")
               for line in out.splitlines() if " " in line)
