"""The app's own web manifest in real Chromium (issue 20): the page links our manifest, which
Chromium parses without errors as Village Companion; every icon it names loads (200, a
PNG of the size it claims); the page's title, description, theme colour, favicon and iOS
home-screen icon are ours, not Flet's."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.i18n import Translator
from companion.web.manifest import ICONS, THEME_COLOUR

from .test_browser import LOAD_TIMEOUT_MS, open_app

pytestmark = pytest.mark.e2e

# Each icon the manifest names, plus the page's own icon links, loaded by the page itself.
_ICONS_JS = """async () => {
  const link = document.querySelector('link[rel=manifest]');
  const answer = await fetch(link.href, {cache: 'no-store'});
  const manifest = await answer.json();
  const load = (src) => new Promise((done) => {
    const img = new Image();
    img.onload = () => done([img.naturalWidth, img.naturalHeight]);
    img.onerror = () => done(null);
    img.src = new URL(src, link.href).href;
  });
  const icons = [];
  for (const icon of manifest.icons) {
    const r = await fetch(new URL(icon.src, link.href).href, {cache: 'no-store'});
    icons.push({src: icon.src, sizes: icon.sizes, purpose: icon.purpose || 'any',
                status: r.status, type: r.headers.get('content-type'),
                size: await load(icon.src)});
  }
  const page = {};
  for (const rel of ['icon', 'apple-touch-icon']) {
    const e = document.querySelector(`link[rel="${rel}"]`);
    page[rel] = {href: e.getAttribute('href'), size: await load(e.href)};
  }
  const meta = (name) => (document.querySelector(`meta[name="${name}"]`) || {}).content;
  return {status: answer.status, manifest, icons, page,
          theme: meta('theme-color'), description: meta('description'),
          appleTitle: meta('apple-mobile-web-app-title'), lang: document.documentElement.lang};
}"""


def test_add_to_home_screen_installs_village_companion(browser: Any, app_url: str) -> None:
    en = Translator("en")
    page = open_app(browser, app_url, "en-US", semantics=False)
    page.wait_for_function("(t) => document.title === t", arg=en.t("app.title"),
                           timeout=LOAD_TIMEOUT_MS)
    found = page.evaluate(_ICONS_JS)
    assert found["status"] == 200
    manifest = found["manifest"]
    assert manifest["name"] == "Village Companion" and manifest["short_name"] == "Village"
    assert manifest["description"] == en.t("app.description")
    assert manifest["theme_color"] == THEME_COLOUR and "Flet" not in json.dumps(manifest)
    assert {(i["sizes"], i["purpose"]) for i in found["icons"]} == {
        ("192x192", "any"), ("512x512", "any"), ("192x192", "maskable"),
        ("512x512", "maskable")}
    for icon in found["icons"]:
        width, height = (int(n) for n in icon["sizes"].split("x"))
        assert icon["status"] == 200 and icon["type"] == "image/png", icon
        assert icon["size"] == [width, height], icon
    apple = found["page"]["apple-touch-icon"]
    assert apple["href"] == "icons/apple-touch-icon-192.png"
    assert apple["size"] == [ICONS["apple-touch-icon-192.png"][0]] * 2
    assert found["page"]["icon"]["size"] == [64, 64]  # assets/favicon.png, not Flet's
    assert found["theme"] == THEME_COLOUR and found["lang"].startswith("en")  # Flutter: en-US
    assert found["description"] == en.t("app.description")
    assert found["appleTitle"] == en.t("app.title")

    # Chromium's own reading of the manifest (what "Install app" uses): no errors.
    cdp = page.context.new_cdp_session(page)
    parsed = cdp.send("Page.getAppManifest")
    assert parsed["url"].endswith("/manifest.json") and not parsed["errors"], parsed["errors"]
    assert json.loads(parsed["data"])["name"] == "Village Companion"
    page.context.close()
