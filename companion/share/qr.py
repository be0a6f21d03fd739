"""The join URL as a QR code for the host's screen (segno: pure Python, no Pillow).

API: `qr_png(url) -> bytes` (a PNG image) and `qr_data_uri(url) -> str`
(`data:image/png;base64,...`, for an `ft.Image(src=...)` or an <img>).

Big modules and the standard 4-module quiet zone so a phone camera reads it at arm's
length across a table; error correction M survives glare and a smudged screen.
"""

from __future__ import annotations

import base64
import io

import segno

SCALE = 10  # pixels per module: a version-5 code (~100-character URL) is ~450 px wide
BORDER = 4  # modules of quiet zone, the QR standard's minimum
DATA_URI_PREFIX = "data:image/png;base64,"


def qr_png(url: str, scale: int = SCALE, border: int = BORDER) -> bytes:
    code = segno.make(url, error="m", micro=False)
    buffer = io.BytesIO()
    code.save(buffer, kind="png", scale=scale, border=border, dark="#000", light="#fff")
    return buffer.getvalue()


def qr_data_uri(url: str, scale: int = SCALE, border: int = BORDER) -> str:
    return DATA_URI_PREFIX + base64.b64encode(qr_png(url, scale, border)).decode("ascii")
