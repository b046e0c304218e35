#!/usr/bin/env python3
"""pngstat.py FILE.png [#rrggbb ...] - decodes a PNG (8-bit RGB or RGBA,
not interlaced, as Chromium's screenshots are) with zlib alone and prints
  width height distinct_colours nonwhite_fraction [pixels_near_colour ...]
so a test can tell a rendered page from a blank one.  A pixel is "near" a
colour when every channel is within 24 of it.  Exits 2 on a PNG it cannot
read."""
import struct
import sys
import zlib


def chunks(data):
    pos = 8
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        yield kind, data[pos + 8:pos + 8 + n]
        pos += 12 + n


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def unfilter(raw, width, height, bpp):
    stride, prev, out, pos = width * bpp, bytearray(width * bpp), [], 0
    for _ in range(height):
        ftype, line = raw[pos], bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                line[i] = (line[i] + paeth(a, b, c)) & 255
        out.append(bytes(line))
        prev = line
    return out


def main():
    data = open(sys.argv[1], "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("not a PNG")
    idat, hdr = b"", None
    for kind, body in chunks(data):
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
    width, height, depth, ctype, _, _, interlace = hdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        print("unsupported PNG", hdr, file=sys.stderr)
        sys.exit(2)
    bpp = 3 if ctype == 2 else 4
    rows = unfilter(zlib.decompress(idat), width, height, bpp)
    want = [tuple(int(c[i:i + 2], 16) for i in (1, 3, 5)) for c in sys.argv[2:]]
    colours, nonwhite, near = set(), 0, [0] * len(want)
    for line in rows:
        for x in range(0, width * bpp, bpp):
            px = tuple(line[x:x + 3])
            colours.add(px)
            if px != (255, 255, 255):
                nonwhite += 1
            for k, w in enumerate(want):
                if all(abs(px[i] - w[i]) <= 24 for i in range(3)):
                    near[k] += 1
    print(width, height, len(colours), "%.4f" % (nonwhite / (width * height)), *near)


main()
