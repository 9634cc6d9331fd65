#!/usr/bin/env python3
"""Writes a small, deterministic PNG avatar for the demo: soft rings in two colours drawn from a seed.

    scripts/demo-avatar.py SEED OUT.png
"""
import hashlib
import math
import struct
import sys
import zlib


def png(width, height, pixels):
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + bytes(pixels[y * width * 3:(y + 1) * width * 3]) for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def main():
    seed, out = sys.argv[1], sys.argv[2]
    digest = hashlib.sha256(seed.encode()).digest()
    a = [40 + digest[i] % 120 for i in range(3)]
    b = [120 + digest[3 + i] % 120 for i in range(3)]
    cx, cy = 20 + digest[6] % 56, 20 + digest[7] % 56
    size = 96
    pixels = []
    for y in range(size):
        for x in range(size):
            t = (math.sin(math.hypot(x - cx, y - cy) / 6.0) + 1) / 2
            pixels += [int(a[i] * t + b[i] * (1 - t)) for i in range(3)]
    with open(out, "wb") as f:
        f.write(png(size, size, pixels))


if __name__ == "__main__":
    main()
