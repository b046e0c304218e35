#!/usr/bin/python3
"""pngstat.py FILE.png [#rrggbb ...] - prints
  width height distinct_colours nonwhite_fraction [pixels_near_colour ...]
of a PNG, so a test can tell a rendered page from a blank one.  A pixel is
"near" a colour when every channel is within 24 of it.  Exits 2 on a file
it cannot read.

Debian's python3 (the shebang): Pillow decodes the PNG and numpy counts,
both from tools/install-deps.sh (python3-pil, python3-numpy).  The earlier
decoder written here with zlib took 5 s per screenshot under make test; a
version manager's python3 first in PATH may have neither package."""
import sys

try:
    import numpy as np
    from PIL import Image
except ImportError as e:
    sys.stderr.write("pngstat.py: %s (tools/install-deps.sh installs python3-pil and "
                     "python3-numpy)\n" % e)
    sys.exit(2)


def main():
    try:
        with Image.open(sys.argv[1]) as im:
            if im.format != "PNG":
                raise ValueError("not a PNG: %s" % im.format)
            rgb = np.asarray(im.convert("RGB"), dtype=np.int32)
    except (OSError, ValueError) as e:
        sys.stderr.write("pngstat.py: %s: %s\n" % (sys.argv[1], e))
        sys.exit(2)
    height, width, _ = rgb.shape
    packed = (rgb[:, :, 0] << 16) | (rgb[:, :, 1] << 8) | rgb[:, :, 2]
    ncol = len(np.unique(packed))
    nonwhite = np.count_nonzero(packed != 0xFFFFFF)
    near = []
    for c in sys.argv[2:]:
        want = np.array([int(c[i:i + 2], 16) for i in (1, 3, 5)], dtype=np.int32)
        near.append(int(np.count_nonzero(np.all(np.abs(rgb - want) <= 24, axis=2))))
    print(width, height, ncol, "%.4f" % (nonwhite / (width * height)), *near)


main()
