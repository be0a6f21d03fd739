"""The app's own web manifest and icons (issue 20): "Add to home screen" installs Village
Companion. The manifest file matches web.manifest.manifest(); every icon is a real PNG of
its size; a maskable icon keeps its picture inside the safe zone; Flet's own ASGI app,
behind ConnectionBanner, serves our manifest, icons and a page head that names the app in
the page's language."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import struct
import zlib
from pathlib import Path

import httpx
import pytest

from companion.app.launch import assets_dir
from companion.app.theme import SEED_COLOUR
from companion.i18n import SUPPORTED_LANGUAGES, Translator
from companion.web.connection_banner import ConnectionBanner
from companion.web.manifest import (
    BACKGROUND_COLOUR,
    ICONS,
    MANIFEST_FILE,
    THEME_COLOUR,
    brand_page,
    manifest,
)

REPO = Path(__file__).resolve().parents[2]
ASSETS = REPO / "assets"


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def png_pixels(data: bytes) -> list[list[tuple[int, int, int, int]]]:
    """RGBA rows of an 8-bit RGBA PNG written without filters (build/make_icon.py's)."""
    width, height = png_size(data)
    assert data[24:26] == bytes((8, 6)), "8-bit RGBA"
    idat, at = b"", 8
    while at < len(data):
        length = struct.unpack(">I", data[at:at + 4])[0]
        kind = data[at + 4:at + 8]
        if kind == b"IDAT":
            idat += data[at + 8:at + 8 + length]
        at += 12 + length
    raw = zlib.decompress(idat)
    rows, stride = [], 1 + 4 * width
    for y in range(height):
        line = raw[y * stride:(y + 1) * stride]
        assert line[0] == 0, "no PNG filter"
        rows.append([(line[1 + 4 * x], line[2 + 4 * x], line[3 + 4 * x], line[4 + 4 * x])
                     for x in range(width)])
    return rows


def test_manifest_file_is_the_apps_own() -> None:
    on_disk = json.loads((ASSETS / MANIFEST_FILE).read_text(encoding="utf-8"))
    assert on_disk == manifest("en")  # regenerate the file when the code changes
    assert on_disk["name"] == Translator("en").t("app.title") == "Village Companion"
    assert on_disk["short_name"] and len(on_disk["short_name"]) <= 12
    assert "Flet" not in json.dumps(on_disk)
    assert on_disk["description"] == Translator("en").t("app.description")
    assert on_disk["theme_color"] == THEME_COLOUR == SEED_COLOUR
    assert on_disk["background_color"] == BACKGROUND_COLOUR
    assert on_disk["display"] == "standalone" and on_disk["start_url"] == "."
    purposes = {(icon["sizes"], icon.get("purpose", "any")) for icon in on_disk["icons"]}
    assert purposes == {("192x192", "any"), ("512x512", "any"), ("192x192", "maskable"),
                        ("512x512", "maskable")}


def test_every_icon_is_a_png_of_its_size() -> None:
    icons = manifest()["icons"]
    assert isinstance(icons, list)
    listed = {icon["src"]: icon["sizes"] for icon in icons}
    for name, (size, _purpose) in ICONS.items():
        data = (ASSETS / "icons" / name).read_bytes()
        assert png_size(data) == (size, size), name
        if f"icons/{name}" in listed:
            assert listed[f"icons/{name}"] == f"{size}x{size}"


def test_icon_table_matches_the_drawing_script() -> None:
    spec = importlib.util.spec_from_file_location("make_icon", REPO / "build" / "make_icon.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.WEB_ICONS == ICONS


@pytest.mark.parametrize("name", [n for n, (_s, p) in ICONS.items() if p == "maskable"])
def test_maskable_icon_keeps_its_picture_in_the_safe_zone(name: str) -> None:
    """Full bleed (no transparent corner), and every pixel that is not the background
    green lies within the safe zone: the centre circle of 40 % of the size (W3C), here
    even 31 % (Android's adaptive-icon circle, 66 of 108 dp; the plain icon reaches 40 %)."""
    rows = png_pixels((ASSETS / "icons" / name).read_bytes())
    size = len(rows)
    background = rows[0][0]
    assert background[3] == 255 and all(
        rows[y][x] == background for x, y in ((0, 0), (size - 1, 0), (0, size - 1)))
    centre = (size - 1) / 2
    picture = [(x, y) for y, row in enumerate(rows) for x, px in enumerate(row)
               if px != background]
    assert len(picture) > size * size // 10  # the house and tree are there
    worst = max(((x - centre) ** 2 + (y - centre) ** 2) ** 0.5 for x, y in picture)
    assert worst <= 0.31 * size, f"{name}: picture reaches {worst / size:.2f} of the size"


FLET_INDEX = (b'<!DOCTYPE html>\n<html>\n<head>\n  <meta name="description" '
              b'content="Flet application.">\n  <meta name="apple-mobile-web-app-title" '
              b'content="Flet">\n  <title>Flet</title>\n</head>\n<body></body>\n</html>\n')


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_page_head_names_the_app_in_its_language(lang: str) -> None:
    tr = Translator(lang)
    page = brand_page(FLET_INDEX, lang).decode()
    assert f"<title>{tr.t('app.title')}</title>" in page
    assert f'<meta name="description" content="{tr.t("app.description")}">' in page
    assert f'<meta name="apple-mobile-web-app-title" content="{tr.t("app.title")}">' in page
    assert f'<meta name="theme-color" content="{THEME_COLOUR}">' in page
    assert f'<html lang="{lang.replace("_", "-")}">' in page
    assert "Flet" not in page
    assert brand_page(brand_page(FLET_INDEX, lang), lang).decode() == page  # once only


async def _get_all(paths: list[str], language: str) -> dict[str, httpx.Response]:
    from flet_web.fastapi import app as flet_fastapi_app

    async def main(page: object) -> None:  # never called: no WebSocket here
        raise AssertionError("no session expected")

    flet_app = flet_fastapi_app(main, assets_dir=str(assets_dir()), no_cdn=True)
    transport = httpx.ASGITransport(app=ConnectionBanner(flet_app))
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8550",
                                 headers={"Accept-Language": language}) as client:
        return {path: await client.get(path) for path in paths}


def test_flets_server_serves_our_manifest_icons_and_page_head() -> None:
    icons = [f"/icons/{name}" for name in ICONS]
    answers = asyncio.run(_get_all(["/", "/manifest.json", "/favicon.png", *icons], "de"))
    for path, answer in answers.items():
        assert answer.status_code == 200, path
    assert answers["/manifest.json"].json() == manifest("en")
    for name, (size, _p) in ICONS.items():
        body = answers[f"/icons/{name}"].content
        assert body == (ASSETS / "icons" / name).read_bytes() and png_size(body) == (size,
                                                                                    size)
    assert answers["/favicon.png"].content == (ASSETS / "favicon.png").read_bytes()
    page = answers["/"].text
    de = Translator("de")
    assert f"<title>{de.t('app.title')}</title>" in page and '<html lang="de">' in page
    assert de.t("app.description") in page and "Flet application" not in page
    assert '<link rel="manifest" href="manifest.json">' in page
    assert 'href="icons/apple-touch-icon-192.png"' in page and 'href="favicon.png"' in page
