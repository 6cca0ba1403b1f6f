# Sourced by the guest scripts that probe IMA or IPE (tests/distro/ima.guest
# and ipe.guest, tests/vm/ima-appraise.sh): ways of running code that IMA or
# IPE judge, each printing what the kernel answered, so that the scripts
# compare a word, not an exit status.

# run_status CMD...: "ok", "exitN", or the errno name exec failed with.
run_status() {
	python3 - "$@" <<'PY'
import errno, subprocess, sys
try:
    r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    print("ok" if r.returncode == 0 else f"exit{r.returncode}")
except OSError as e:
    print(errno.errorcode.get(e.errno, str(e.errno)))
PY
}
# dlopen_status LIB: "ok" or dlerror's text (a refused executable mapping:
# "failed to map segment"). _ctypes.dlopen, not ctypes.CDLL: under IPE a
# ctypes callback is refused, and the probe must not depend on one.
dlopen_status() {
	python3 -c '
import _ctypes, os, sys
try:
    _ctypes.dlopen(sys.argv[1], os.RTLD_NOW); print("ok")
except OSError as e:
    print(e)' "$1"
}
# memfd_status FILE: run_status of FILE's bytes copied into a memfd.
memfd_status() {
	python3 - "$1" <<'PY'
import errno, os, subprocess, sys
fd = os.memfd_create("intruder", 0)
os.write(fd, open(sys.argv[1], "rb").read())
try:
    r = subprocess.run([f"/proc/self/fd/{fd}", "--version"], pass_fds=(fd,),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    print("ok" if r.returncode == 0 else f"exit{r.returncode}")
except OSError as e:
    print(errno.errorcode.get(e.errno, str(e.errno)))
PY
}
