"""Draw assets/icon.png (1024x1024, app icon for `flet build`), assets/favicon.png
(64x64, browser tab) and the web app's icons under assets/icons/ (the web manifest's
192/512 and maskable 192/512, the iOS home-screen icon and the loading screen's picture;
see companion/web/manifest.py) without any imaging library: a house with a red roof
and a tree on village green. A maskable icon draws the picture at MASKABLE_SCALE around
the centre, so all of it lies inside the safe zone (the centre circle of 40 % radius)
that every launcher's mask keeps. Run: python build/make_icon.py"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

SIZE = 1024
SUB = 2  # 2x2 supersampling for smooth edges
GREEN = (78, 125, 58)
CREAM = (244, 233, 208)
ROOF = (168, 62, 38)
DOOR = (110, 70, 40)
TREE = (46, 84, 36)
TRUNK = (96, 64, 38)

Colour = tuple[int, int, int]


def colour_at(x: float, y: float) -> Colour:
    """Front-most shape at (x, y) in 0..1 coordinates (y down)."""
    # Door, then house body, then roof, then tree, then background.
    if 0.36 <= x <= 0.46 and 0.62 <= y <= 0.78:
        return DOOR
    if 0.22 <= x <= 0.62 and 0.46 <= y <= 0.78:
        return CREAM
    # Roof: triangle apex (0.42, 0.22), base y=0.48 from x=0.16 to 0.68.
    if 0.22 <= y <= 0.48:
        half = (y - 0.22) / (0.48 - 0.22) * 0.26
        if abs(x - 0.42) <= half:
            return ROOF
    if (x - 0.76) ** 2 + (y - 0.50) ** 2 <= 0.11 ** 2:
        return TREE
    if 0.745 <= x <= 0.775 and 0.58 <= y <= 0.78:
        return TRUNK
    return GREEN


MASKABLE_SCALE = 0.72  # the picture reaches 0.39 from the centre at 1.0: 0.28 at 0.72


def render(size: int, scale: float = 1.0) -> bytes:
    rows = bytearray()
    for py in range(size):
        rows.append(0)  # PNG filter type: none
        for px in range(size):
            r = g = b = 0
            for sy in range(SUB):
                for sx in range(SUB):
                    x = (px + (sx + 0.5) / SUB) / size
                    y = (py + (sy + 0.5) / SUB) / size
                    c = colour_at(0.5 + (x - 0.5) / scale, 0.5 + (y - 0.5) / scale)
                    r, g, b = r + c[0], g + c[1], b + c[2]
            n = SUB * SUB
            rows += bytes((r // n, g // n, b // n, 255))
    return bytes(rows)


def png(width: int, height: int, raw_rgba_rows: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(raw_rgba_rows, 9)) + chunk(b"IEND", b""))


# The web icons: file name under assets/icons/ -> (size, purpose); the same table as
# companion/web/manifest.ICONS (tests/web/test_manifest.py checks they agree).
WEB_ICONS: dict[str, tuple[int, str | None]] = {
    "icon-192.png": (192, None),
    "icon-512.png": (512, None),
    "icon-maskable-192.png": (192, "maskable"),
    "icon-maskable-512.png": (512, "maskable"),
    "apple-touch-icon-192.png": (192, None),
    "loading-animation.png": (512, None),
}


if __name__ == "__main__":
    assets = Path(__file__).resolve().parent.parent / "assets"
    jobs = [("icon.png", SIZE, 1.0), ("favicon.png", 64, 1.0)]
    for name, (size, purpose) in WEB_ICONS.items():
        jobs.append((f"icons/{name}", size, MASKABLE_SCALE if purpose == "maskable" else 1.0))
    (assets / "icons").mkdir(exist_ok=True)
    for name, size, scale in jobs:
        out = assets / name
        out.write_bytes(png(size, size, render(size, scale)))
        print(f"wrote {out} ({out.stat().st_size} bytes)")
