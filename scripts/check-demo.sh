#!/usr/bin/env bash
# Checks that Content/ is what `make demo` makes with this prolific: regenerates the demo into a
# scratch folder and compares the two, file by file.
#
#   scripts/check-demo.sh SCRATCH
#
# Every file but the avatars is compared byte for byte. An avatar (a PNG that
# scripts/demo-avatar.py writes) is compared by its header and its pixels: deflate's bytes differ
# from one zlib to another (zlib-ng's, say) for the same pixels.
set -euo pipefail

PROLIFIC=${PROLIFIC:-.build/release/prolific}
scratch=${1:?usage: scripts/check-demo.sh SCRATCH}
rm -rf "$scratch"
PROLIFIC=$PROLIFIC scripts/make-demo.sh "$scratch" > /dev/null

python3 - Content "$scratch" <<'PY'
import os, sys, zlib

def files(root):
    found = set()
    for folder, folders, names in os.walk(root):
        folders[:] = [f for f in folders if f != ".prolific"]
        for name in names:
            found.add(os.path.relpath(os.path.join(folder, name), root))
    return found

def pixels(path):
    """A PNG's header and its image data, inflated."""
    data = open(path, "rb").read()
    chunks, at = [], 8
    while at + 8 <= len(data):
        length = int.from_bytes(data[at:at + 4], "big")
        kind = data[at + 4:at + 8]
        chunks.append((kind, data[at + 8:at + 8 + length]))
        at += 12 + length
    header = b"".join(body for kind, body in chunks if kind == b"IHDR")
    return header, zlib.decompress(b"".join(body for kind, body in chunks if kind == b"IDAT"))

content, made = sys.argv[1], sys.argv[2]
ours, theirs = files(content), files(made)
problems = [f"only in {content}: {p}" for p in sorted(ours - theirs)]
problems += [f"only in what make demo makes: {p}" for p in sorted(theirs - ours)]
for path in sorted(ours & theirs):
    a, b = os.path.join(content, path), os.path.join(made, path)
    same = pixels(a) == pixels(b) if path.endswith(".png") else open(a, "rb").read() == open(b, "rb").read()
    if not same:
        problems.append(f"differs: {path}")
for line in problems[:20]:
    print(line)
if problems:
    sys.exit(f"check-demo: {content}/ differs from what make demo makes now: run make demo and commit it")
print(f"check-demo: {content}/ is what make demo makes ({len(ours)} files)")
PY
