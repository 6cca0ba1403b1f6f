"""What the kernel says about a file's fs-verity, without a process per file:
statx(2) STATX_ATTR_VERITY and FS_IOC_MEASURE_VERITY. Used by statx-verity
and check-installed (many files per call under a slow emulated CPU)."""
import ctypes
import fcntl
import os

AT_FDCWD = -100
STATX_BASIC_STATS = 0x7FF
STATX_ATTR_VERITY = 0x00100000
FS_IOC_MEASURE_VERITY = 0xC0046686  # _IOWR('f', 134, struct fsverity_digest)
HASH_NAMES = {1: "sha256", 2: "sha512"}

_libc = ctypes.CDLL(None, use_errno=True)


def statx_attributes(path):
    """Returns (stx_attributes, stx_attributes_mask) of path."""
    buf = ctypes.create_string_buffer(256)
    if _libc.statx(AT_FDCWD, os.fsencode(path), 0, STATX_BASIC_STATS, buf) != 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err), path)
    return (int.from_bytes(buf.raw[8:16], "little"),
            int.from_bytes(buf.raw[56:64], "little"))


def has_verity(path):
    return bool(statx_attributes(path)[0] & STATX_ATTR_VERITY)


def measure(path):
    """Returns (algorithm number, digest bytes) the kernel measured for path."""
    buf = bytearray(4 + 64)
    buf[2:4] = (64).to_bytes(2, "little")
    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.ioctl(fd, FS_IOC_MEASURE_VERITY, buf)
    finally:
        os.close(fd)
    alg = int.from_bytes(buf[0:2], "little")
    size = int.from_bytes(buf[2:4], "little")
    return alg, bytes(buf[4:4 + size])
