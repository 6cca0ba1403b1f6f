# Writes deterministic test file content for the spec files: every 4 KiB
# block differs (so Merkle tree leaves differ) yet compresses somewhat.
# Usage: gen-content.py PATH SIZE [SEED]
import hashlib
import sys

path, size = sys.argv[1], int(sys.argv[2])
seed = (sys.argv[3] if len(sys.argv) > 3 else path).encode()
with open(path, "wb") as f:
    block = 0
    while size > 0:
        chunk = hashlib.sha256(seed + block.to_bytes(8, "little")).digest() * 128
        f.write(chunk[:size])
        size -= len(chunk)
        block += 1
