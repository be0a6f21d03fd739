"""The app's own web identity (issue 20): "Add to home screen" installs Village Companion,
not Flet.

* `assets/manifest.json` is the web manifest (name, short name, description, colours and the
  192/512 and maskable icons under `assets/icons/`, drawn by build/make_icon.py). Flet's
  static files take `manifest.json`, `favicon.png` and `icons/*` from the app's assets
  directory before its own, so the file names stay Flet's: its `index.html` already links
  `manifest.json`, `favicon.png` and `icons/apple-touch-icon-192.png`, and its loading
  screen shows `icons/loading-animation.png` (our icon too).
* `brand_page(html, language)` rewrites Flet's `index.html` head as the page is served
  (ConnectionBanner calls it): the title, the iOS home-screen title and the description in
  the page's language, `<html lang>`, and a `theme-color` meta in the app's seed colour.

The manifest has one language: English, the app's fallback (a manifest cannot follow the
browser's language without a server-side copy per language, and an installed app keeps
the name it was installed with anyway).

No Flet import: the ASGI middleware uses it before the app exists.
"""

from __future__ import annotations

import html
import re

from companion.i18n import DEFAULT_LANGUAGE, SUPPORTED_LANGUAGES, Translator, page_text
from companion.web.asgi import html_lang

MANIFEST_FILE = "manifest.json"
TITLE_KEY = "app.title"
SHORT_NAME = "Village"  # under the home-screen icon, where about 12 characters fit
DESCRIPTION_KEY = "app.description"
THEME_COLOUR = "#4E7D3A"  # theme.SEED_COLOUR (theme imports Flet): the browser's bar
BACKGROUND_COLOUR = "#FFFFFF"  # the splash behind the icon: the loading page's own white
# Icon file (under assets/icons/) -> (size in px, manifest purpose or None).
ICONS: dict[str, tuple[int, str | None]] = {
    "icon-192.png": (192, None),
    "icon-512.png": (512, None),
    "icon-maskable-192.png": (192, "maskable"),
    "icon-maskable-512.png": (512, "maskable"),
    "apple-touch-icon-192.png": (192, None),  # index.html's apple-touch-icon
    "loading-animation.png": (512, None),  # index.html's loading screen
}

_TITLE = re.compile(rb"<title>[^<]*</title>", re.IGNORECASE)
_META = r'<meta\s+name="{name}"\s+content="[^"]*"\s*/?>'
_DESCRIPTION = re.compile(_META.format(name="description").encode(), re.IGNORECASE)
_APPLE_TITLE = re.compile(_META.format(name="apple-mobile-web-app-title").encode(),
                          re.IGNORECASE)
_THEME = re.compile(rb'<meta\s+name="theme-color"', re.IGNORECASE)
_HTML_TAG = re.compile(rb"<html(\s[^>]*)?>", re.IGNORECASE)


def manifest(language: str = DEFAULT_LANGUAGE) -> dict[str, object]:
    """The web manifest's content (assets/manifest.json holds the English one)."""
    tr = Translator(language)
    icons: list[dict[str, str]] = []
    for name, (size, purpose) in ICONS.items():
        if name.startswith("icon-"):
            icon = {"src": f"icons/{name}", "sizes": f"{size}x{size}", "type": "image/png"}
            if purpose:
                icon["purpose"] = purpose
            icons.append(icon)
    return {
        "name": tr.t(TITLE_KEY),
        "short_name": SHORT_NAME,
        "description": tr.t(DESCRIPTION_KEY),
        "lang": html_lang(tr.lang),
        "start_url": ".",
        "scope": ".",
        "display": "standalone",
        "orientation": "any",
        "background_color": BACKGROUND_COLOUR,
        "theme_color": THEME_COLOUR,
        "prefer_related_applications": False,
        "icons": icons,
    }


def brand_page(page: bytes, language: str) -> bytes:
    """Flet's `index.html` with the app's title, description, language and theme colour."""
    lang = language if language in SUPPORTED_LANGUAGES else DEFAULT_LANGUAGE
    title = html.escape(page_text(lang, TITLE_KEY)).encode()
    description = html.escape(page_text(lang, DESCRIPTION_KEY)).encode()
    page = _TITLE.sub(lambda _m: b"<title>" + title + b"</title>", page, count=1)
    page = _DESCRIPTION.sub(
        lambda _m: b'<meta name="description" content="' + description + b'">', page, count=1)
    page = _APPLE_TITLE.sub(
        lambda _m: b'<meta name="apple-mobile-web-app-title" content="' + title + b'">', page,
        count=1)
    page = _HTML_TAG.sub(
        lambda m: b'<html lang="' + html_lang(lang).encode() + b'"'
        + re.sub(rb'\slang="[^"]*"', b"", m.group(1) or b"") + b">", page, count=1)
    if not _THEME.search(page):
        meta = f'<meta name="theme-color" content="{THEME_COLOUR}">\n'.encode()
        at = page.lower().find(b"</head>")
        if at >= 0:
            page = page[:at] + meta + page[at:]
    return page
