# The one generator of deterministic test file content, for the spec files
# (tests/signer/specs) and the kernel tests (tests/vm/kernel-lib.sh's
# make_file): every 4 KiB block differs (so Merkle tree leaves differ) yet
# compresses somewhat.
# Usage: gen-content.py PATH SIZE [SEED]; SIZE in bytes, or in MiB with an
# M after it (5.01M).
import hashlib
import sys

path, size = sys.argv[1], sys.argv[2]
size = int(float(size[:-1]) * 1048576) if size.endswith("M") else int(size)
seed = (sys.argv[3] if len(sys.argv) > 3 else path).encode()
with open(path, "wb") as f:
    block = 0
    while size > 0:
        chunk = hashlib.sha256(seed + block.to_bytes(8, "little")).digest() * 128
        f.write(chunk[:size])
        size -= len(chunk)
        block += 1
