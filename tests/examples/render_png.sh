#!/bin/sh
# The render demo's PNG encoder (tests/examples/render_png.c): checksums, round trips at block
# boundaries, refusals; and, where Python's zlib is installed, one PNG inflated by a decoder that
# is not ours.
set -u
. "$PLEXUS_TOP_SRCDIR/tests/lib/checks.sh"
prog=$PLEXUS_TOP_BUILDDIR/tests/examples/render_png
run -t 120 units "$prog"
expect_status 0
expect_contains "render_png: all passed"
cat "$out"
if python3 -c 'import zlib' 2>/dev/null; then
  run -t 60 sample "$prog" --write "$work/sample.png"
  expect_status 0
  check "Python's zlib inflates the sample PNG to the expected scanlines and every chunk's CRC matches" \
    python3 -c '
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat, types = 8, b"", []
while pos < len(data):
    n, = struct.unpack(">I", data[pos:pos + 4])
    kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
    crc, = struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])
    assert zlib.crc32(kind + body) == crc, kind
    types.append(kind)
    if kind == b"IDAT":
        idat += body
    pos += 12 + n
assert types == [b"IHDR", b"IDAT", b"IEND"], types
w, h = struct.unpack(">II", data[16:24])
raw = zlib.decompress(idat)
pixels = bytes((i * 131 + (i >> 9)) & 255 for i in range(3 * w * h))
want = b"".join(b"\0" + pixels[3 * w * y:3 * w * (y + 1)] for y in range(h))
assert (w, h) == (200, 120) and raw == want
' "$work/sample.png"
else
  echo "python3 with zlib not found: the PNG was not inflated by another decoder"
fi
finish
