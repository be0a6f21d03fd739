"""A banner in the web page while the app's connection is lost (issue 13).

Flet's Python side cannot reach a browser that lost its WebSocket, so the banner lives in
the page itself. `ConnectionBanner(app, language)` is ASGI middleware (pure ASGI, no Flet
import) that adds one inline `<script>` to the app page (every `text/html` 200 answer to a
GET or HEAD: Flet serves `index.html` for `/` and for every route). The script runs before
Flutter boots and wraps `window.WebSocket` (a Proxy: the Flutter client still gets a real
WebSocket) to watch the app's socket (path `/ws`):

* the socket closes or fails and none is open again after GRACE_MS: a fixed banner at the
  top of the page, above the Flutter view: "Connection lost — trying to reconnect…";
* meanwhile the page as it was stays readable (issue 20): the socket's close and error
  events are held back from the Flutter client (its listeners on that socket are kept
  aside), so it neither covers the page with Flet's loading screen ("Working…") nor
  retries. The script asks the server for a small file (PROBE_PATH) every PROBE_MS,
  doubling up to PROBE_MAX_MS; once it answers, the held events go to the client, which
  reconnects at once. While the banner shows, the Flutter view's colours are dulled under
  a striped sheet (`#vc-offline`) with "not live" in words at the bottom. While a close is
  held, taps never reach the client (it would send them into the dead socket): a mouse
  press, a touch that neither moves TAP_SLOP_PX nor lasts PRESS_MS (the script cancels it
  with a pointercancel), a click and Enter/Space are dropped; a touch that moves (a
  scroll) and the mouse wheel pass, so the page as it was can still be scrolled and read;
* a socket opens again: the banner says "Connected again" at the bottom of the page (the
  app bar usable at once, taps pass through) for BACK_MS, then goes. Flet's
  web client reconnects by itself (every 500 ms on 127.0.0.1 and localhost, with doubling
  waits elsewhere, without a time limit) and opens a new WebSocket; a reload starts a new
  page, where the banner starts hidden;
* a joined phone the host let go (table mode): its socket closes with ShareGuard's code
  (4001 stopped sharing, 4002 removed), or, while lost, the probe gets the guard's 403
  with `x-vc-share` (no longer a member): the page says so in words over the whole app
  (`#vc-ended`, role="alert") with a link to the join page, and the client is never
  handed the close, so it does not retry for ever behind a "connection lost" banner.

The banner (`#vc-connection-banner`) is one DOM element with role="status" and
aria-live="polite", present (empty, zero height) from page load on so screen readers
announce its words; while shown it is at least 48 px high, in its own colours (light or
dark with the system), and blocks taps only while the connection is lost.

Its words come from the catalogues (`connection.lost`, `connection.back`,
`connection.not_live`, `connection.stopped|removed|left`, `connection.join`) in the app's
language, chosen when the page is requested: `language(scope)` (the app passes
`app.page_language.StoreLanguage`: the language setting, or None while the user has not
chosen one), else the browser's
Accept-Language among the supported languages, else English. All four languages' words
go into the page with the app title in each language: when the user switches language
later, the page's title (which the app sets to `app.title`) picks the matching words.

The page's head names the app (title, description, theme colour) in the same language:
`manifest.brand_page`.

The page is sent with `Cache-Control: no-store` and without validators (ETag,
Last-Modified), and conditional request headers are dropped for page requests, so a cached
page never keeps an old language or a page from before this script.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from companion.i18n import DEFAULT_LANGUAGE, SUPPORTED_LANGUAGES, page_text
from companion.web.asgi import first_header, html_lang, language_for
from companion.web.fonts import WEB_FONTS, font_face_css, needed
from companion.web.manifest import brand_page
from companion.web.share_guard import (
    JOIN_PATH,
    MEMBER_CLOSE_CODE,
    MEMBER_REMOVED_CODE,
    SHARE_HEADER,
)

logger = logging.getLogger(__name__)

BANNER_ID = "vc-connection-banner"
SCRIPT_ID = "vc-connection-script"
LOST_KEY = "connection.lost"
BACK_KEY = "connection.back"
TITLE_KEY = "app.title"
NOT_LIVE_KEY = "connection.not_live"
# What a phone reads when the host let it go, and the join page's link (issue 20).
END_KEYS = {"stopped": "connection.stopped", "removed": "connection.removed",
            "left": "connection.left"}
JOIN_KEY = "connection.join"
SHADE_ID = "vc-offline"  # the sheet over the page while the connection is lost
END_ID = "vc-ended"  # the words shown once the host let this phone go
PROBE_PATH = "manifest.json"  # a small file the page asks for to see the server is back
# A ShareGuard close code (the host stopped sharing / removed this phone) -> END_KEYS key.
END_CODES = {str(MEMBER_CLOSE_CODE): "stopped", str(MEMBER_REMOVED_CODE): "removed"}
PROBE_MS = 500  # the first wait between two probes; it doubles up to PROBE_MAX_MS
PROBE_MAX_MS = 2000
TAP_SLOP_PX = 12  # a touch that moves further is a scroll, and passes while offline
PRESS_MS = 400  # a touch held this long without moving is cancelled (no long press)
GRACE_MS = 1500  # a socket that is back within this shows no banner at all
BACK_MS = 2000  # how long "Connected again" stays
WS_PATH_SUFFIX = "/ws"  # Flet's webSocketEndpoint

# Returns the language the user chose for the app, or None to follow the browser.
LanguageSource = Callable[[Scope], Awaitable[str | None]]

_MARKER = f'id="{SCRIPT_ID}"'.encode()
# Request headers that could get a 304 for a page cached before the script (or in another
# language): dropped from page requests.
_CONDITIONAL = frozenset({b"if-none-match", b"if-modified-since", b"if-match",
                          b"if-unmodified-since", b"if-range"})
# Response headers that no longer describe the changed page.
_STALE = frozenset({b"content-length", b"etag", b"last-modified", b"cache-control",
                    b"expires"})


def banner_words() -> dict[str, dict[str, str]]:
    """Each supported language's banner words and app title, from the catalogues."""
    out: dict[str, dict[str, str]] = {}
    for lang in SUPPORTED_LANGUAGES:
        keys = {"lost": LOST_KEY, "back": BACK_KEY, "notLive": NOT_LIVE_KEY,
                "join": JOIN_KEY, **END_KEYS, "title": TITLE_KEY}
        # page_text: from the language's messages.po alone, at the first answer (issue 23)
        out[lang] = {**{name: page_text(lang, key) for name, key in keys.items()},
                     "lang": html_lang(lang)}
    return out


def choose_language(chosen: str | None, accept_language: str | None) -> str:
    """The app's language setting when there is one, else the browser's, else English."""
    if chosen in SUPPORTED_LANGUAGES:
        return chosen
    return language_for(accept_language)


# The system's fonts first, then the app's own web fonts (a device without CJK fonts
# still reads Korean and Chinese: the same files Flutter draws with).
_FONTS = ("system-ui,-apple-system,'Segoe UI',Roboto,'Noto Sans','Noto Sans CJK KR',"
          "'Noto Sans CJK TC'," + ",".join(f"'{f}'" for f in WEB_FONTS) + ",sans-serif")
_CSS = font_face_css() + (
    f"#{BANNER_ID}{{position:fixed;top:0;left:0;right:0;z-index:2147483647;"
    "box-sizing:border-box;margin:0;padding:0;text-align:center;"
    f"font:600 16px/1.4 {_FONTS}}}"
    f"#{BANNER_ID}[data-state]{{display:flex;align-items:center;justify-content:center;"
    "gap:10px;min-height:48px;padding:12px 16px;"
    "padding-top:max(12px,env(safe-area-inset-top));box-shadow:0 2px 8px rgba(0,0,0,.35);"
    "overflow-wrap:anywhere}"
    f"#{BANNER_ID}[data-state=lost]{{background:#fff1c2;color:#3a2c00;"
    "border-bottom:3px solid #8a6500}"
    f"#{BANNER_ID}[data-state=lost]::before{{content:'';flex:none;width:16px;height:16px;"
    "border:3px solid currentColor;border-right-color:transparent;border-radius:50%;"
    "animation:vc-spin 1s linear infinite}"
    # "Connected again" at the bottom: the app bar (Back, Undo, the log) is usable again
    # at once, and the banner lets taps through.
    f"#{BANNER_ID}[data-state=back]{{top:auto;bottom:0;background:#d5f2da;color:#0d3a17;"
    "border-top:3px solid #2e7d32;pointer-events:none;"
    "padding-bottom:max(12px,env(safe-area-inset-bottom));box-shadow:0 -2px 8px rgba(0,0,0,.35)}"
    # While lost: the page as it was, its colours dulled (cube colours still tell apart),
    # under a striped sheet (scrolls pass through; the script drops taps), with "not live"
    # at the bottom.
    "html[data-vc-offline] flutter-view{filter:saturate(.45)}"
    f"#{SHADE_ID}{{display:none}}"
    f"#{SHADE_ID}[data-on]{{display:flex;position:fixed;inset:0;z-index:2147483646;"
    "align-items:flex-end;justify-content:center;box-sizing:border-box;padding:16px;"
    "padding-bottom:max(16px,env(safe-area-inset-bottom));"
    "background:repeating-linear-gradient(135deg,rgba(96,96,96,.13) 0 14px,"
    "transparent 14px 28px);pointer-events:none}"
    f"#{SHADE_ID} span{{box-sizing:border-box;max-width:32rem;min-height:48px;"
    "padding:12px 16px;border-radius:12px;background:#fff1c2;color:#3a2c00;"
    "border:2px solid #8a6500;box-shadow:0 2px 8px rgba(0,0,0,.35);text-align:center;"
    f"font:600 16px/1.4 {_FONTS};overflow-wrap:anywhere}}"
    # The host let this phone go: its words and the join page, over the whole page.
    f"#{END_ID}{{display:none}}"
    f"#{END_ID}[data-end]{{display:flex;flex-direction:column;align-items:center;"
    "justify-content:center;gap:24px;position:fixed;inset:0;z-index:2147483647;"
    "box-sizing:border-box;padding:24px;background:#f6f3ea;color:#1d1b16;text-align:center;"
    f"font:18px/1.5 {_FONTS}}}"
    f"#{END_ID} p{{margin:0;max-width:28rem;font-size:1.25rem;font-weight:600}}"
    f"#{END_ID} a{{display:inline-flex;align-items:center;justify-content:center;"
    "min-height:48px;min-width:48px;box-sizing:border-box;padding:10px 24px;"
    "border-radius:10px;background:#5b4a1f;color:#fff;font-weight:600;"
    "text-decoration:none}"
    "@keyframes vc-spin{to{transform:rotate(360deg)}}"
    f"@media (prefers-reduced-motion:reduce){{#{BANNER_ID}::before{{animation:none}}}}"
    f"@media (prefers-color-scheme:dark){{#{BANNER_ID}[data-state=lost]{{"
    "background:#453500;color:#ffedb0;border-bottom-color:#ffc928}"
    f"#{BANNER_ID}[data-state=back]{{background:#123a1a;color:#c9f5d0;"
    "border-top-color:#66bb6a}"
    f"#{SHADE_ID} span{{background:#453500;color:#ffedb0;border-color:#ffc928}}"
    f"#{END_ID}[data-end]{{background:#1b1a17;color:#eee}}"
    f"#{END_ID} a{{background:#c9a64a;color:#1b1a17}}}}"
)

# The page's script: %CONFIG% becomes a JSON object (language, words, timings).
_JS = """(function () {
  "use strict";
  var cfg = %CONFIG%;
  var Native = window.WebSocket;
  if (!Native || window.__vcConnection) return;
  var open = 0, shown = "", lostTimer = 0, backTimer = 0, leaving = false, box = null;
  var held = [], probeTimer = 0, probeWait = 0, probing = false, ended = "";
  var shade = null, endBox = null, made = 0, dropped = 0, blocked = 0, presses = {};
  function words() {
    for (var lang in cfg.words) {
      if (cfg.words[lang].title === document.title) return cfg.words[lang];
    }
    return cfg.words[cfg.lang];
  }
  function element(id, role) {
    if (!document.body) return null;
    var e = document.getElementById(id);
    if (!e) {
      e = document.createElement("div");
      e.id = id;
      if (role) e.setAttribute("role", role);
      document.body.appendChild(e);
    }
    return e;
  }
  function banner() {
    if (!box && document.body) {
      box = element(cfg.id, "status");
      box.setAttribute("aria-live", "polite");
      box.setAttribute("aria-atomic", "true");
    }
    return box;
  }
  // The page as it was stays on screen while the server is away: greyed, marked
  // "not live", and a sheet over it takes every tap (nothing reaches the dead session).
  function offline(on) {
    var root = document.documentElement;
    if (on) root.setAttribute("data-vc-offline", "");
    else root.removeAttribute("data-vc-offline");
    if (!shade) shade = element(cfg.shadeId, "");
    if (!shade) return;
    shade.textContent = "";
    if (!on) { shade.removeAttribute("data-on"); return; }
    var w = words(), note = document.createElement("span");
    note.lang = w.lang;
    note.textContent = w.notLive;
    shade.appendChild(note);
    shade.setAttribute("data-on", "");
  }
  function show(state) {
    var b = banner();
    shown = state;
    offline(state === "lost");
    if (!b) return;
    if (!state) {
      b.removeAttribute("data-state");
      b.textContent = "";
      return;
    }
    var w = words();
    b.setAttribute("data-state", state);
    b.lang = w.lang;
    b.textContent = w[state];
  }
  // The host let this phone go (removed it, stopped sharing, or it is no longer a
  // member): say so in words and offer the join page; the app never reconnects.
  function finish(kind) {
    if (ended || leaving) return;
    ended = cfg.ends.indexOf(kind) >= 0 ? kind : "left";
    clearTimeout(lostTimer);
    clearTimeout(backTimer);
    clearTimeout(probeTimer);
    lostTimer = backTimer = probeTimer = 0;
    show("");
    endBox = element(cfg.endId, "alert");
    if (!endBox) return;
    var w = words(), text = document.createElement("p"), link = document.createElement("a");
    endBox.textContent = "";
    endBox.lang = w.lang;
    text.textContent = w[ended];
    link.href = cfg.joinPath;
    link.textContent = w.join;
    endBox.appendChild(text);
    endBox.appendChild(link);
    endBox.setAttribute("data-end", ended);
  }
  function lost() {
    if (ended || open > 0 || leaving || shown === "lost" || lostTimer) return;
    lostTimer = setTimeout(function () {
      lostTimer = 0;
      if (ended || open > 0 || leaving) return;
      clearTimeout(backTimer);
      show("lost");
    }, cfg.graceMs);
  }
  function opened() {
    open += 1;
    clearTimeout(lostTimer);
    lostTimer = 0;
    if (shown === "lost") {
      show("back");
      backTimer = setTimeout(function () { show(""); }, cfg.backMs);
    }
  }
  // A closed socket's close and error events are held back from the app until the
  // server answers again (`probe`): Flet's client would cover the page with its
  // loading screen while it retries. Then they go to the app, which reconnects.
  function hold(deliver) {
    held.push(deliver);
    probeSoon(0);
  }
  function probeSoon(ms) {
    if (ended || probeTimer || probing) return;
    probeTimer = setTimeout(probe, ms);
  }
  function probe() {
    probeTimer = 0;
    if (ended || !held.length) return;
    probing = true;
    function done(ok, left) {
      probing = false;
      if (ended) return;
      if (left) { finish(left); return; }
      if (ok) {
        probeWait = 0;
        var deliver = held;
        held = [];
        for (var i = 0; i < deliver.length; i++) deliver[i]();
        return;
      }
      probeWait = Math.min(probeWait ? probeWait * 2 : cfg.probeMs, cfg.probeMaxMs);
      probeSoon(probeWait);
    }
    fetch(cfg.probe, {cache: "no-store", credentials: "same-origin"}).then(function (r) {
      done(r.ok, r.status === 403 ? (r.headers.get(cfg.shareHeader) || "") : "");
    }, function () { done(false, ""); });
  }
  function watch(ws, url) {
    var path;
    try { path = new URL(String(url), location.href).pathname; } catch (e) { return; }
    if (path.slice(-cfg.path.length) !== cfg.path) return;
    made += 1;
    var wasOpen = false, closed = false;
    var add = ws.addEventListener, remove = ws.removeEventListener;
    var own = {close: [], error: []}, handler = {close: null, error: null};
    ws.addEventListener = function (type, fn, opts) {
      if (!own.hasOwnProperty(type)) return add.apply(ws, arguments);
      if (!fn || own[type].some(function (l) { return l.fn === fn; })) return;
      own[type].push({fn: fn, once: !!(opts && typeof opts === "object" && opts.once)});
    };
    ws.removeEventListener = function (type, fn) {
      if (!own.hasOwnProperty(type)) return remove.apply(ws, arguments);
      own[type] = own[type].filter(function (l) { return l.fn !== fn; });
    };
    Object.keys(own).forEach(function (type) {
      Object.defineProperty(ws, "on" + type, {
        configurable: true, enumerable: true,
        get: function () { return handler[type]; },
        set: function (f) { handler[type] = typeof f === "function" ? f : null; }
      });
    });
    function deliver(event) {
      var type = event.type, list = own[type].slice();
      if (handler[type]) list.push({fn: handler[type], once: false});
      list.forEach(function (l) {
        if (l.once) own[type] = own[type].filter(function (m) { return m !== l; });
        try {
          if (typeof l.fn === "function") l.fn.call(ws, event);
          else l.fn.handleEvent(event);
        } catch (e) { setTimeout(function () { throw e; }); }
      });
    }
    var send = ws.send;
    ws.send = function () {  // the client still thinks it is open: nothing reaches anyone
      if (closed) { dropped += 1; return; }
      return send.apply(ws, arguments);
    };
    add.call(ws, "open", function () { wasOpen = true; opened(); });
    function end(event) {
      if (!closed) {
        closed = true;
        if (wasOpen) open -= 1;
      }
      var kind = event.type === "close" ? cfg.codes[String(event.code)] : "";
      if (kind) { finish(kind); return; }
      hold(function () { deliver(event); });
      lost();
    }
    add.call(ws, "close", end);
    add.call(ws, "error", end);
  }
  // While a close is held back the client would send taps into a dead socket: taps,
  // long presses, clicks and Enter/Space never reach it. A touch that moves (a scroll)
  // passes, so the page as it was can still be scrolled and read; so does the wheel.
  function blocking() { return held.length > 0 && !ended; }
  function swallow(event) {
    event.stopImmediatePropagation();
    if (event.cancelable) event.preventDefault();
  }
  function cancel(press) {
    press.cancelled = true;
    clearTimeout(press.timer);
    var target = press.target && press.target.isConnected ? press.target
      : document.querySelector("flutter-view");
    if (!target) return;
    target.dispatchEvent(new PointerEvent("pointercancel", {
      bubbles: true, composed: true, pointerId: press.id, pointerType: press.type,
      isPrimary: press.primary, clientX: press.x, clientY: press.y}));
  }
  window.addEventListener("pointerdown", function (event) {
    if (!blocking()) return;
    var press = {id: event.pointerId, type: event.pointerType, primary: event.isPrimary,
                 x: event.clientX, y: event.clientY, target: event.target, moved: false,
                 cancelled: false, mouse: event.pointerType === "mouse", timer: 0};
    presses[event.pointerId] = press;
    if (press.mouse) {  // a mouse cannot drag-scroll the app: a press is a tap
      blocked += 1;
      swallow(event);
      return;
    }
    press.timer = setTimeout(function () {
      if (!press.moved && !press.cancelled) { blocked += 1; cancel(press); }
    }, cfg.pressMs);
  }, true);
  window.addEventListener("pointermove", function (event) {
    var press = presses[event.pointerId];
    if (!press || press.moved || press.mouse) return;
    if (Math.abs(event.clientX - press.x) + Math.abs(event.clientY - press.y) > cfg.slopPx) {
      press.moved = true;
      clearTimeout(press.timer);
    }
  }, true);
  window.addEventListener("pointerup", function (event) {
    var press = presses[event.pointerId];
    if (!press) return;
    delete presses[event.pointerId];
    clearTimeout(press.timer);
    if (press.mouse || press.cancelled) { swallow(event); return; }
    if (press.moved) return;  // the end of a scroll
    blocked += 1;
    swallow(event);
    cancel(press);
  }, true);
  window.addEventListener("pointercancel", function (event) {
    if (event.isTrusted) delete presses[event.pointerId];
  }, true);
  window.addEventListener("click", function (event) {
    if (blocking() && !(endBox && endBox.contains(event.target))) {
      blocked += 1;
      swallow(event);
    }
  }, true);
  window.addEventListener("keydown", function (event) {
    var t = event.target, typing = t && (t.isContentEditable || /^(INPUT|TEXTAREA)$/.test(
      t.tagName || ""));  // a space typed into a text field stays a space
    if (blocking() && !typing && (event.key === "Enter" || event.key === " ")) swallow(event);
  }, true);
  window.WebSocket = new Proxy(Native, {
    construct: function (target, args, newTarget) {
      var ws = Reflect.construct(target, args,
                                 newTarget === window.WebSocket ? target : newTarget);
      try { watch(ws, args[0]); } catch (e) { /* the app's socket matters more */ }
      return ws;
    }
  });
  window.__vcConnection = {
    state: function () { return shown; },
    open: function () { return open; },
    held: function () { return held.length; },
    made: function () { return made; },
    dropped: function () { return dropped; },
    blocked: function () { return blocked; },
    ended: function () { return ended; }
  };
  window.addEventListener("pagehide", function () { leaving = true; });
  window.addEventListener("pageshow", function () { leaving = false; });
  var style = document.createElement("style");
  style.textContent = cfg.css;
  (document.head || document.documentElement).appendChild(style);
  // The page's language's own font, fetched now: once the server is away it cannot be.
  if (document.fonts && document.fonts.load) cfg.fonts.forEach(function (family) {
    document.fonts.load("600 16px '" + family + "'").catch(function () {});
  });
  if (document.body) banner();
  else document.addEventListener("DOMContentLoaded", function () {
    banner();
    if (shown) show(shown);
    if (ended) { var kind = ended; ended = ""; finish(kind); }
  });
})();"""


def banner_script(language: str) -> str:
    """The `<script>` element for a page in `language` (English when unsupported)."""
    lang = language if language in SUPPORTED_LANGUAGES else DEFAULT_LANGUAGE
    config = {"lang": lang, "words": banner_words(), "id": BANNER_ID, "css": _CSS,
              "fonts": needed(lang),
              "graceMs": GRACE_MS, "backMs": BACK_MS, "path": WS_PATH_SUFFIX,
              "shadeId": SHADE_ID, "endId": END_ID, "ends": list(END_KEYS),
              "codes": END_CODES, "joinPath": JOIN_PATH.lstrip("/"),
              "probe": PROBE_PATH, "probeMs": PROBE_MS, "probeMaxMs": PROBE_MAX_MS,
              "slopPx": TAP_SLOP_PX, "pressMs": PRESS_MS,
              "shareHeader": SHARE_HEADER.decode()}
    # "<" escaped so no text can end the script element early.
    data = json.dumps(config, ensure_ascii=False, separators=(",", ":")).replace("<",
                                                                                "\\u003c")
    return f'<script {_MARKER.decode()}>{_JS.replace("%CONFIG%", data)}</script>'


def inject(html: bytes, script: str) -> bytes:
    """`html` with `script` before `</head>` (else after `<body…>`, else first); unchanged
    when it already has the script."""
    if _MARKER in html:
        return html
    code = script.encode("utf-8")
    lower = html.lower()
    at = lower.find(b"</head>")
    if at < 0:
        body = lower.find(b"<body")
        at = lower.find(b">", body) + 1 if body >= 0 else 0
    return html[:at] + code + html[at:]


def _may_be_page(scope: Scope) -> bool:
    """A request Flet may answer with the app page: GET/HEAD of `/`, a route (no file
    extension) or an `.html` file."""
    if scope["type"] != "http" or scope.get("method") not in ("GET", "HEAD"):
        return False
    last = str(scope.get("path", "/")).rsplit("/", 1)[-1]
    return "." not in last or last.lower().endswith(".html")


def _is_html(headers: list[tuple[bytes, bytes]]) -> bool:
    types = [v for k, v in headers if k.lower() == b"content-type"]
    encoded = any(k.lower() == b"content-encoding" and v.strip().lower() != b"identity"
                  for k, v in headers)
    return (len(types) == 1 and types[0].split(b";")[0].strip().lower() == b"text/html"
            and not encoded)


class ConnectionBanner:
    """ASGI middleware: puts the connection banner's script into the app page."""

    def __init__(self, app: ASGIApp, language: LanguageSource | None = None) -> None:
        self.app = app
        self.language = language

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not _may_be_page(scope):
            await self.app(scope, receive, send)
            return
        scope = {**scope, "headers": [(k, v) for k, v in scope.get("headers", ())
                                      if k.lower() not in _CONDITIONAL]}
        head = scope.get("method") == "HEAD"
        start: Message | None = None
        chunks: list[bytes] = []

        async def send_page(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                if message.get("status") == 200 and _is_html(headers):
                    start = message  # held until the whole body is here
                    return
                await send(message)
                return
            if start is None or message["type"] != "http.response.body":
                await send(message)
                return
            chunks.append(message.get("body", b""))
            if message.get("more_body", False):
                return
            if head:
                body = b""
            else:
                language = await self._language(scope)
                body = brand_page(inject(b"".join(chunks), banner_script(language)), language)
            headers = [(k, v) for k, v in start.get("headers", ())
                       if k.lower() not in _STALE]
            headers.append((b"cache-control", b"no-store"))
            if not head:  # a HEAD answer cannot know the length without the body
                headers.append((b"content-length", str(len(body)).encode()))
            await send({**start, "headers": headers})
            await send({"type": "http.response.body", "body": body})

        await self.app(scope, receive, send_page)

    async def _language(self, scope: Scope) -> str:
        chosen: str | None = None
        if self.language is not None:
            try:
                chosen = await self.language(scope)
            except Exception:  # the banner must never keep the page from loading
                logger.exception("the app language could not be read for the page")
        return choose_language(chosen, first_header(scope, b"accept-language"))
