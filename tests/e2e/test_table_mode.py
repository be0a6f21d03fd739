"""Table mode in real Chromium: the host on 127.0.0.1, two phones on 127.0.0.2 (standing in
for the LAN address; only 127.0.0.x is bound or targeted).

The host opens a game's share screen; phone A joins by the QR link (read off the host's
screen) and picks Ann's seat; phone B types the code on /join after a wrong one; five
wrong codes from another address lock it out; a WebSocket without the member cookie is
refused; A reloads and keeps its seat; A takes a cube and the host and B see it live, B
undoes it and A and the host see that; the host removes B (B's reload lands on the join
page); stopping sharing shuts A out too.
"""

from __future__ import annotations

import http.client
import re
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from .conftest import restartable_app
from .test_browser import LOAD_TIMEOUT_MS, STEP_TIMEOUT_MS, open_app, settle, shot

pytestmark = pytest.mark.e2e

SHARE_ADDRESS = "127.0.0.2"
_NODE_TEXT_JS = """(id) => {
  const e = document.querySelector(`[flt-semantics-identifier="${id}"]`);
  return e ? ((e.getAttribute('aria-label') || '') + '\\n' + (e.textContent || '')).trim()
           : null;
}"""
_MEMBER_WITH_JS = """(sub) => {
  for (const e of document.querySelectorAll('[flt-semantics-identifier^="member-"]')) {
    const t = (e.getAttribute('aria-label') || '') + ' ' + (e.textContent || '');
    if (t.includes(sub)) return e.getAttribute('flt-semantics-identifier').slice(7);
  }
  return null;
}"""


@dataclass
class Shared:
    port: int
    session_id: str
    cube_id: str  # the table's identifier of a plain cube to take
    colour: str

    def host(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def phone(self, path: str) -> str:
        return f"http://{SHARE_ADDRESS}:{self.port}{path}"


def _seed(data_dir: Path) -> tuple[str, str, str]:
    """A two-player game; returns its id, a cube's identifier on the table, its colour."""
    from companion.store.tinydb_store import TinyDBStore
    from companion.village.service import VillageService
    from companion.village.setup import PlayerSetup, VillageSetup

    service = VillageService(TinyDBStore(data_dir))
    setup = VillageSetup(players=[PlayerSetup(name="Ann", colour="red"),
                                  PlayerSetup(name="Bo", colour="blue")],
                         start_player=0, seed=3)
    session_id, session = service.create(setup)
    for space, cubes in session.state.spaces.items():
        ordered = sorted(cubes, key=lambda c: (c == "plague", c))  # as the table shows them
        if space != "market" and ordered and ordered[0] != "plague":
            return session_id, f"cube-{space}-{ordered[0]}-0", ordered[0]
    raise AssertionError("no plain cube on the board")


@pytest.fixture
def shared(chromium: Path, tmp_path: Path) -> Iterator[Shared]:
    try:
        with socket.socket() as probe:
            probe.bind((SHARE_ADDRESS, 0))
    except OSError as exc:
        pytest.skip(f"cannot bind {SHARE_ADDRESS}: {exc}")
    session_id, cube_id, colour = _seed(tmp_path)
    with restartable_app(tmp_path, "--share", SHARE_ADDRESS) as app:
        yield Shared(app.port, session_id, cube_id, colour)


def node_text(page: Any, identifier: str) -> str:
    return str(page.evaluate(_NODE_TEXT_JS, identifier) or "")


def wait_text(page: Any, identifier: str, sub: str, timeout: int = STEP_TIMEOUT_MS) -> None:
    page.wait_for_function(
        f"([id, sub]) => {{ const t = ({_NODE_TEXT_JS})(id); "
        "return t !== null && t.includes(sub); }", arg=[identifier, sub], timeout=timeout)


def tap_id(page: Any, identifier: str) -> None:
    settle(page)
    node = page.locator(f'[flt-semantics-identifier="{identifier}"]')
    node.wait_for(state="attached", timeout=STEP_TIMEOUT_MS)
    node.locator("xpath=descendant-or-self::*[@flt-tappable]").first.dispatch_event("click")


def tap_back(page: Any, label: str) -> None:
    """The app bar's back arrow (an icon button named by its tooltip)."""
    settle(page)
    page.get_by_label(label, exact=True).get_by_role("button").first.dispatch_event("click")


def wait_id(page: Any, identifier: str, timeout: int = LOAD_TIMEOUT_MS) -> None:
    page.locator(f'[flt-semantics-identifier="{identifier}"]').wait_for(
        state="attached", timeout=timeout)


def post_code(s: Shared, code: str, source: str) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection(SHARE_ADDRESS, s.port, timeout=5,
                                      source_address=(source, 0))
    conn.request("POST", "/join", body=urlencode({"code": code}),
                 headers={"Content-Type": "application/x-www-form-urlencoded"})
    response = conn.getresponse()
    response.read()
    conn.close()
    return response


def test_phones_join_play_and_are_let_go(browser: Any, shared: Shared,
                                         screenshots: Path) -> None:
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect
    from websockets.typing import Origin

    s, started = shared, time.monotonic()
    table = f"/play/village/{s.session_id}"
    cube = f"{s.colour} ×1"

    # ---- the host opens the share screen: QR code, link in words, join code
    host = open_app(browser, s.host(f"{table}/share"), "en-US")
    wait_id(host, "join-code")
    wait_id(host, "share-qr")
    link = re.search(r"http://127\.0\.0\.2:\d+/join\?t=[\w-]+", node_text(host, "join-url"))
    assert link is not None, node_text(host, "join-url")
    code_match = re.search(r"\b([A-Z0-9]{3}) ?([A-Z0-9]{3})\b", node_text(host, "join-code"))
    assert code_match is not None
    code = code_match.group(1) + code_match.group(2)
    shot(host, screenshots, "table-mode-share-360x800.png")
    host.set_viewport_size({"width": 768, "height": 1024})  # a tablet held upright
    settle(host)
    shot(host, screenshots, "table-mode-share-768x1024.png")
    host.set_viewport_size({"width": 360, "height": 800})

    # ---- strangers: a WebSocket without the cookie, and a code guesser locked out
    with pytest.raises(InvalidStatus) as refused:
        connect(f"ws://{SHARE_ADDRESS}:{s.port}/ws", open_timeout=5,
                origin=Origin(f"http://{SHARE_ADDRESS}:{s.port}"))
    assert refused.value.response.status_code == 403
    statuses = [post_code(s, "WRONG9", "127.0.0.3").status for _ in range(5)]
    assert statuses == [403, 403, 403, 403, 429]
    assert post_code(s, code, "127.0.0.3").status == 429  # locked out even with the code

    # ---- phone A: the QR link, then Ann's seat; it opens on Ann's panel
    phone_a = open_app(browser, link.group(0), "en-US")
    wait_id(phone_a, "seat-0")
    tap_id(phone_a, "seat-0")
    phone_a.wait_for_url(re.compile(rf"{table}/player/0$"), timeout=STEP_TIMEOUT_MS)
    host.wait_for_function(  # the host's list follows the join and the seat
        f"(sub) => ({_MEMBER_WITH_JS})(sub) !== null", arg="Ann's phone",
                           timeout=STEP_TIMEOUT_MS)

    # ---- phone B: the join page, a wrong code, then the right one; Bo's seat
    context_b = browser.new_context(viewport={"width": 360, "height": 800}, locale="en-US")
    phone_b = context_b.new_page()
    phone_b.goto(s.phone("/"))
    assert phone_b.url.endswith("/join")
    phone_b.fill("#code", "ZZZZZZ")
    phone_b.click("button[type=submit]")
    assert "That code is not right" in phone_b.content()
    context_b.close()
    phone_b = _join_by_code(browser, s, code)
    wait_id(phone_b, "seat-1")
    tap_id(phone_b, "seat-1")
    phone_b.wait_for_url(re.compile(rf"{table}/player/1$"), timeout=STEP_TIMEOUT_MS)

    # ---- phone A reloads: still a member, still Ann's seat
    phone_a.goto(s.phone("/"))
    phone_a.locator("flt-semantics-placeholder").wait_for(state="attached",
                                                          timeout=LOAD_TIMEOUT_MS)
    phone_a.locator("flt-semantics-placeholder").evaluate("e => e.click()")
    phone_a.wait_for_url(re.compile(rf"{table}/player/0$"), timeout=LOAD_TIMEOUT_MS)

    # ---- everyone on the table; A takes a cube, B and the host see it within a moment
    for page, back in ((host, "Back"), (phone_a, "Back to the table"),
                       (phone_b, "Back to the table")):
        tap_back(page, back)
        wait_id(page, "player-0", STEP_TIMEOUT_MS)
    tap_id(phone_a, s.cube_id)
    for page in (phone_a, phone_b, host):
        wait_text(page, "player-0", cube)
    # B corrects A's move (any seated phone may, asked first: not its own action):
    # everyone sees the cube go back
    tap_id(phone_b, "undo")
    settle(phone_b)
    phone_b.locator('flt-semantics[role="alertdialog"]').get_by_role(
        "button", name="Undo", exact=True).dispatch_event("click")
    for page in (phone_a, phone_b, host):
        page.wait_for_function(
            f"([id, sub]) => {{ const t = ({_NODE_TEXT_JS})(id); "
            "return t !== null && !t.includes(sub); }", arg=["player-0", cube],
            timeout=STEP_TIMEOUT_MS)
    wait_id(phone_a, s.cube_id)  # back on its action space, for every phone

    # ---- the host removes B: B's reload lands on the join page
    tap_id(host, "open-share")
    wait_id(host, "join-code", STEP_TIMEOUT_MS)
    host.wait_for_function(f"(sub) => ({_MEMBER_WITH_JS})(sub) !== null", arg="Bo's phone",
                           timeout=STEP_TIMEOUT_MS)
    member_b = host.evaluate(_MEMBER_WITH_JS, "Bo's phone")
    tap_id(host, f"remove-{member_b}")  # asked first, as stopping is
    settle(host)
    host.locator('flt-semantics[role="alertdialog"]').get_by_role(
        "button", name="Remove", exact=True).dispatch_event("click")
    host.wait_for_function(f"(sub) => ({_MEMBER_WITH_JS})(sub) === null", arg="Bo's phone",
                           timeout=STEP_TIMEOUT_MS)
    phone_b.goto(s.phone("/"))
    assert phone_b.url.endswith("/join")

    # ---- stop sharing: A is shut out as well
    tap_id(host, "share-stop")
    settle(host)
    host.locator('flt-semantics[role="alertdialog"]').get_by_role(
        "button", name="Stop sharing", exact=True).dispatch_event("click")
    wait_id(host, "share-stopped", STEP_TIMEOUT_MS)
    phone_a.goto(s.phone("/"))
    assert phone_a.url.endswith("/join")
    assert "Sharing is off" in phone_a.content()
    assert time.monotonic() - started < 120


def _join_by_code(browser: Any, s: Shared, code: str) -> Any:
    """A phone types the code on the join page, then the app opens (semantics on)."""
    from .test_browser import SEMANTICS_CLOCK_JS

    context = browser.new_context(viewport={"width": 360, "height": 800}, locale="en-US")
    context.add_init_script(SEMANTICS_CLOCK_JS)
    page = context.new_page()
    page.goto(s.phone("/join"))
    page.fill("#code", code.lower())
    page.click("button[type=submit]")
    page.wait_for_selector("flutter-view", timeout=LOAD_TIMEOUT_MS)
    placeholder = page.locator("flt-semantics-placeholder")
    placeholder.wait_for(state="attached", timeout=LOAD_TIMEOUT_MS)
    placeholder.evaluate("e => e.click()")
    return page
