"""A phone the host let go is told so in words (issue 20), in real Chromium: the host on
127.0.0.1, two phones on 127.0.0.2 (standing in for the LAN address).

Phone A joins by the QR link and phone B by the code; each takes a seat. The host removes
B: B's page says "The host removed this phone from the game." (not "Connection lost"),
with a link to the join page, and its app does not keep reconnecting; the link opens the
join page. The host stops sharing: A's page says the host stopped sharing, and its link
opens the join page, which says sharing is off.

And when the server is restarted (nothing is shared until the host shares again), a phone
that was waiting for it learns from the guard's answer to its probe that sharing stopped:
the same words-and-link page, not "connection lost" for ever. (The guard's other answer,
"left", for a phone while sharing is on, is checked in tests/share/test_guard.py.)
"""

from __future__ import annotations

import re
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.i18n import Translator
from companion.web.connection_banner import BANNER_ID, END_ID

from .conftest import AppProcess, restartable_app
from .test_browser import LOAD_TIMEOUT_MS, STEP_TIMEOUT_MS, open_app, settle
from .test_table_mode import (
    _MEMBER_WITH_JS,
    SHARE_ADDRESS,
    Shared,
    _join_by_code,
    _seed,
    node_text,
    shared,  # noqa: F401  (the fixture)
    tap_id,
    wait_id,
)

pytestmark = pytest.mark.e2e


def check_told(page: Any, kind: str, words: str, join: str) -> None:
    """The page says `words` over the whole app, with a join-page link of 48 px or more;
    no "connection lost" banner; the app is not reconnecting (no new socket)."""
    told = page.locator(f'#{END_ID}[data-end="{kind}"]')
    told.wait_for(state="visible", timeout=STEP_TIMEOUT_MS)
    assert page.get_by_role("alert").filter(has_text=words).is_visible()
    box = told.bounding_box()
    assert box is not None and box["width"] == 360 and box["height"] == 800
    link = told.get_by_role("link", name=join, exact=True)
    link_box = link.bounding_box()
    assert link_box is not None and link_box["height"] >= 48 and link_box["width"] >= 48
    made = page.evaluate("window.__vcConnection.made()")
    page.wait_for_timeout(2_500)  # Flet's client would have retried several times by now
    assert page.evaluate("window.__vcConnection.made()") == made
    assert page.locator(f"#{BANNER_ID}").is_hidden()
    assert told.is_visible()


def test_removed_and_stopped_phones_are_told_in_words(browser: Any,
                                                      shared: Shared,  # noqa: F811
                                                      screenshots: Any) -> None:
    s, en = shared, Translator("en")
    host = open_app(browser, s.host(f"/play/village/{s.session_id}/share"), "en-US")
    wait_id(host, "join-code")
    link = re.search(r"http://127\.0\.0\.2:\d+/join\?t=[\w-]+", node_text(host, "join-url"))
    assert link is not None, node_text(host, "join-url")
    code_match = re.search(r"\b([A-Z0-9]{3}) ?([A-Z0-9]{3})\b", node_text(host, "join-code"))
    assert code_match is not None
    code = code_match.group(1) + code_match.group(2)

    phone_a = open_app(browser, link.group(0), "en-US")
    wait_id(phone_a, "seat-0")
    tap_id(phone_a, "seat-0")
    phone_a.wait_for_url(re.compile(r"/player/0$"), timeout=STEP_TIMEOUT_MS)
    phone_b = _join_by_code(browser, s, code)
    wait_id(phone_b, "seat-1")
    tap_id(phone_b, "seat-1")
    phone_b.wait_for_url(re.compile(r"/player/1$"), timeout=STEP_TIMEOUT_MS)

    # ---- the host removes B: B is told in words and offered the join page
    host.wait_for_function(f"(sub) => ({_MEMBER_WITH_JS})(sub) !== null", arg="Bo's phone",
                           timeout=STEP_TIMEOUT_MS)
    member_b = host.evaluate(_MEMBER_WITH_JS, "Bo's phone")
    tap_id(host, f"remove-{member_b}")  # asked first, as stopping is
    settle(host)
    host.locator('flt-semantics[role="alertdialog"]').get_by_role(
        "button", name="Remove", exact=True).dispatch_event("click")
    check_told(phone_b, "removed", en.t("connection.removed"), en.t("connection.join"))
    phone_b.screenshot(path=str(screenshots / "54-phone-removed-360x800.png"))
    assert phone_a.locator(f"#{END_ID}").is_hidden()  # A plays on
    phone_b.get_by_role("link", name=en.t("connection.join")).click()
    phone_b.wait_for_url(re.compile(r"/join$"), timeout=STEP_TIMEOUT_MS)
    assert phone_b.locator("#code").is_visible()  # sharing is on: the code form

    # ---- the host stops sharing: A is told so, and the join page says sharing is off
    settle(host)
    tap_id(host, "share-stop")
    settle(host)
    host.locator('flt-semantics[role="alertdialog"]').get_by_role(
        "button", name="Stop sharing", exact=True).dispatch_event("click")
    wait_id(host, "share-stopped", STEP_TIMEOUT_MS)
    check_told(phone_a, "stopped", en.t("connection.stopped"), en.t("connection.join"))
    phone_a.screenshot(path=str(screenshots / "55-phone-sharing-stopped-360x800.png"))
    phone_a.get_by_role("link", name=en.t("connection.join")).click()
    phone_a.wait_for_url(re.compile(r"/join$"), timeout=STEP_TIMEOUT_MS)
    assert "Sharing is off" in phone_a.content()


@pytest.fixture
def restartable_share(chromium: Path, tmp_path: Path) -> Iterator[tuple[AppProcess, str]]:
    import socket

    try:
        with socket.socket() as probe:
            probe.bind((SHARE_ADDRESS, 0))
    except OSError as exc:
        pytest.skip(f"cannot bind {SHARE_ADDRESS}: {exc}")
    session_id = _seed(tmp_path)[0]
    with restartable_app(tmp_path, "--share", SHARE_ADDRESS) as app:
        yield app, session_id


def test_a_phone_waiting_for_a_restarted_server_is_told_sharing_stopped(
        browser: Any, restartable_share: tuple[AppProcess, str]) -> None:
    server, session_id = restartable_share
    en = Translator("en")
    host = open_app(browser, f"{server.base}/play/village/{session_id}/share", "en-US")
    wait_id(host, "join-url")
    link = re.search(r"http://127\.0\.0\.2:\d+/join\?t=[\w-]+", node_text(host, "join-url"))
    assert link is not None, node_text(host, "join-url")
    phone = open_app(browser, link.group(0), "en-US")
    wait_id(phone, "seat-0")
    host.context.close()

    server.stop(signal.SIGKILL)
    phone.get_by_role("status").filter(has_text=en.t("connection.lost")).wait_for(
        state="visible", timeout=10_000)
    server.start()  # a new process: nothing shared yet, the phone's cookie unknown
    told = phone.locator(f'#{END_ID}[data-end="stopped"]')
    told.wait_for(state="visible", timeout=LOAD_TIMEOUT_MS)
    assert told.inner_text().startswith(en.t("connection.stopped"))
    assert phone.locator(f"#{BANNER_ID}").is_hidden()
    phone.get_by_role("link", name=en.t("connection.join")).click()
    phone.wait_for_url(re.compile(r"/join$"), timeout=STEP_TIMEOUT_MS)
    assert "Sharing is off" in phone.content()
