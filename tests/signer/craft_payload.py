#!/usr/bin/env python3
# craft_payload.py IN OUT PATH [--drop]: a copy of the uncompressed
# package IN whose cpio payload carries PATH twice, the second time with
# other content of the same size (with --drop: not at all), with the size
# tags, the payload digest and the header digests made consistent again, as an attacker would
# make them. The signer must refuse it (tests/signer/payload_dups.sh).
import hashlib, struct, sys

LEAD = 96
SIG_SIZE, SIG_LONGSIZE, SIG_PAYLOADSIZE, SIG_LONGARCHIVESIZE = 1000, 270, 1007, 271
TAG_PAYLOADDIGEST, TAG_PAYLOADDIGESTALT = 5092, 5097
SIG_SHA1, SIG_SHA256 = 269, 273    # of the main header, hex


def header(d, off):
    il, dl = struct.unpack(">II", d[off + 8:off + 16])
    index = off + 16
    data = index + 16 * il
    tags = {}
    for i in range(il):
        tag, typ, o, cnt = struct.unpack(">IIII", d[index + 16 * i:index + 16 * i + 16])
        tags[tag] = data + o
    return tags, data + dl


def cpio_entries(p):
    out, off = [], 0
    while True:
        h = p[off:off + 110]
        assert h[:6] == b"070701", "not a newc cpio payload"
        namesize = int(h[94:102], 16)
        filesize = int(h[54:62], 16)
        name = p[off + 110:off + 110 + namesize - 1].decode()
        data = (off + 110 + namesize + 3) & ~3
        end = (data + filesize + 3) & ~3
        out.append((name, off, data, filesize, end))
        if name == "TRAILER!!!":
            return out
        off = end


def main():
    src, dst, path = sys.argv[1:4]
    d = bytearray(open(src, "rb").read())
    sig, sig_end = header(d, LEAD)
    hstart = (sig_end + 7) & ~7
    main_tags, payload_start = header(d, hstart)
    p = bytes(d[payload_start:])
    for name, start, data, size, end in cpio_entries(p):
        if name.lstrip(".") == path:
            break
    else:
        sys.exit(f"{path} not in the payload")
    assert size > 0 or "--drop" in sys.argv[4:], f"{path} carries no content"
    if "--drop" in sys.argv[4:]:
        twin = b""
        p = p[:start] + p[end:]
        delta = start - end
    else:
        twin = bytearray(p[start:end])
        for i in range(data - start, data - start + size):
            twin[i] ^= 0x5a          # same size, other content
        p = p[:end] + bytes(twin) + p[end:]
        delta = len(twin)
    d = d[:payload_start] + p

    total = len(d) - hstart
    if SIG_SIZE in sig:
        d[sig[SIG_SIZE]:sig[SIG_SIZE] + 4] = struct.pack(">I", total)
    if SIG_LONGSIZE in sig:
        d[sig[SIG_LONGSIZE]:sig[SIG_LONGSIZE] + 8] = struct.pack(">Q", total)
    if SIG_PAYLOADSIZE in sig:
        o = sig[SIG_PAYLOADSIZE]
        d[o:o + 4] = struct.pack(">I", struct.unpack(">I", d[o:o + 4])[0] + delta)
    if SIG_LONGARCHIVESIZE in sig:
        o = sig[SIG_LONGARCHIVESIZE]
        d[o:o + 8] = struct.pack(">Q", struct.unpack(">Q", d[o:o + 8])[0] + delta)
    digest = hashlib.sha256(p).hexdigest().encode()
    for tag in (TAG_PAYLOADDIGEST, TAG_PAYLOADDIGESTALT):
        if tag in main_tags:
            o = main_tags[tag]
            assert d[o + 64] == 0, "payload digest is not SHA-256"
            d[o:o + 64] = digest
    # the payload digest lives in the main header: its digests follow
    for tag, algo, n in ((SIG_SHA256, hashlib.sha256, 64), (SIG_SHA1, hashlib.sha1, 40)):
        if tag in sig:
            o = sig[tag]
            assert d[o + n] == 0, "header digest of an unexpected length"
            d[o:o + n] = algo(bytes(d[hstart:payload_start])).hexdigest().encode()
    open(dst, "wb").write(d)


main()
