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


def file_rule(signer, rpm):
    """Each file of RPM as rpm-verity's rule sees it, {path: (signed,
    protected)}, asked of SIGNER (`rpm-verity verify --list`): the build
    keeps no copy of the rule, so it cannot leave out what the plugin
    protects (executable %config files)."""
    rule = {}
    for line in run([signer, "verify", "--list", rpm]).splitlines():
        path, signed, protected, _entry = line.split("\t")
        rule[path] = (signed == "signed", protected == "protected")
    return rule


def signable(signer, rpm):
    """Whether the package has a file rpm-verity signs (a regular file, not
    %ghost; %config files too). Packages of directories and links alone
    (gcc-12-base without its docs) carry no signature, and verify says so
    as an error."""
    return any(signed for signed, _ in file_rule(signer, rpm).values())
