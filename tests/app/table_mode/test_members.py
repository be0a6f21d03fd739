"""Table mode, headless: a joined phone is confined to its game, picks a seat once (a
reload keeps it), a watching phone may not act, and the log says whose phone acted."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import flet as ft
import pytest

from companion.app.routing import HOME_ROUTE, RouteSpec
from companion.app.shell import build_main
from companion.app.store_access import AsyncStore
from companion.app.table_mode.routes import table_mode_routes
from companion.app.table_mode.sharing import TableShare
from companion.app.views.home import HomeScreen
from companion.app.views.settings import SettingsScreen
from companion.app.village.hub import HUB
from companion.app.village.routes import village_routes
from companion.share.registry import Joined, ShareRegistry
from companion.store.memory import MemoryStore

from ..harness import AppHarness, FakeClient
from ..village_table.conftest import find_id, make_game, tap
from ..village_table.test_table import cube_id, first_cube


def routes() -> dict[str, RouteSpec]:
    return {HOME_ROUTE: RouteSpec(HomeScreen, parent=None),
            "/settings": RouteSpec(SettingsScreen), **village_routes(),
            **table_mode_routes()}


@pytest.fixture
def share() -> TableShare:
    return TableShare(ShareRegistry(), "127.0.0.2", 8550)


def join(share: TableShare, game_id: str) -> str:
    invitation = share.registry.current()
    if invitation is None or invitation.game_id != game_id:
        invitation = share.registry.open(game_id)
    joined = share.registry.join_by_code(invitation.join_code, "127.0.0.2")
    assert isinstance(joined, Joined)
    return joined.member.member_id


@contextmanager
def client(store: MemoryStore, share: TableShare | None, member_id: str | None,
           route: str = "/", width: float = 360) -> Iterator[AppHarness]:
    astore = AsyncStore(store)
    real = build_main(astore, routes(), share=share)

    async def main(page: ft.Page) -> None:
        if member_id is not None:  # what ShareGuard puts on a joined phone's WebSocket
            page.client_user_agent = f"Mozilla/5.0 Phone vc-member/{member_id}"
        await real(page)

    app = AppHarness(main=main, client=FakeClient(initial_route=route, width=width))
    try:
        with app:
            yield app
    finally:
        astore.close()


def stack(app: AppHarness) -> list[str]:
    return [str(v.route) for v in app.page.views]


def test_a_phone_picks_its_seat_and_never_sees_anything_else(store: MemoryStore,
                                                              share: TableShare) -> None:
    sid, other = make_game(store), make_game(store, players=3)
    member = join(share, sid)
    with client(store, share, member) as phone:
        assert stack(phone) == [f"/play/village/{sid}", f"/play/village/{sid}/seat"]
        phone.settle()
        assert {"Ann", "Bo", "Watch only"} <= set(phone.visible_texts())
        tap(phone, "seat-1")
        assert stack(phone)[-1] == f"/play/village/{sid}/player/1"
        assert share.registry.member(member).seat == 1  # type: ignore[union-attr]
        for route in ("/", "/settings", f"/play/village/{other}", "/new/village",
                      f"/play/village/{sid}/share", "/nowhere"):
            phone.set_route(route)
            assert HOME_ROUTE not in stack(phone), route
            assert all(r.startswith(f"/play/village/{sid}") for r in stack(phone)), route
            assert not stack(phone)[-1].endswith("/share"), route
        phone.set_route(f"/play/village/{sid}/log")
        assert stack(phone) == [f"/play/village/{sid}", f"/play/village/{sid}/log"]
    # a reload (a new client for the same cookie) keeps the seat
    with client(store, share, member) as again:
        assert stack(again) == [f"/play/village/{sid}", f"/play/village/{sid}/player/1"]


def test_the_host_sees_everything_and_the_share_button(store: MemoryStore,
                                                       share: TableShare) -> None:
    sid = make_game(store)
    with client(store, share, None, f"/play/village/{sid}") as host:
        find_id(host, "open-share")
        tap(host, "open-share")
        assert stack(host)[-1] == f"/play/village/{sid}/share"
        invitation = share.registry.current()
        assert invitation is not None and invitation.game_id == sid
        assert invitation.join_code[:3] in " ".join(host.visible_texts())
        member = join(share, sid)
        share.choose_seat(member, 0)
        host.settle()
        find_id(host, f"member-{member}")
        assert "Ann's phone · 127.0.0.2" in host.visible_texts()
        tap(host, f"remove-{member}")  # asked first, as stopping is
        assert share.registry.member(member) is not None
        assert "Ann's phone · 127.0.0.2 leaves the game now. To come back, it joins " \
               "again with the code on this screen." in host.visible_texts()
        confirm = [c for c, _ in host.find_all("Remove") if isinstance(c, ft.FilledButton)]
        host.dispatch(confirm[0], "click")
        assert share.registry.member(member) is None
        host.settle()
        assert "No phone has joined yet." in host.visible_texts()
    with client(store, None, None, f"/play/village/{sid}") as plain, \
            pytest.raises(AssertionError):  # not sharing: no share button
        find_id(plain, "open-share")


def test_a_watching_phone_may_not_act_and_a_seated_one_is_named_in_the_log(
        store: MemoryStore, share: TableShare) -> None:
    sid = make_game(store)
    space, colour = first_cube(store, sid)
    ident = cube_id(store, sid, space, colour)
    watcher, player = join(share, sid), join(share, sid)
    share.choose_seat(watcher, None)
    share.choose_seat(player, 0)
    table = f"/play/village/{sid}"
    with client(store, share, watcher, table) as phone:
        tap(phone, ident)
        assert len(store.load(sid).events) == 0 or all(
            e["body"].get("type") != "take_cube" for e in store.load(sid).events)
        assert any("watching" in t for t in phone.visible_texts())
    share.registry.set_watch_only(player, True)
    with client(store, share, player, table) as phone:
        tap(phone, ident)
        assert all(e["body"].get("type") != "take_cube" for e in store.load(sid).events)
        assert any("watch-only" in t for t in phone.visible_texts())
        share.registry.set_watch_only(player, False)
        tap(phone, ident)
        taken = store.load(sid).events[-1]
        assert taken["body"]["type"] == "take_cube" and taken["by"] == {"seat": 0}
        opened = HUB.get(sid)
        assert opened is not None and opened.session.events[-1]["by"] == {"seat": 0}
        phone.set_route(f"/play/village/{sid}/log")
        phone.settle()
        assert any("— Ann's phone" in t for t in phone.visible_texts())


def test_a_removed_phone_shows_that_it_left(store: MemoryStore, share: TableShare) -> None:
    sid = make_game(store)
    member = join(share, sid)
    share.remove(member)
    with client(store, share, member) as phone:
        assert stack(phone) == ["/share/left"]
        find_id(phone, "share-left")


def test_a_phone_follows_the_round_end_and_may_open_it(store: MemoryStore,
                                                       share: TableShare) -> None:
    """The round end opens by itself on a phone at the table, as on the host; its banner
    leads there again (a phone was sent back to the table before)."""
    from ..village_table.test_round_end_screen import end_round_on_the_table, end_turn_elsewhere

    sid = end_round_on_the_table(store)
    member = join(share, sid)
    share.choose_seat(member, 1)
    with client(store, share, member, f"/play/village/{sid}") as phone:
        assert stack(phone)[-1] == f"/play/village/{sid}"
        end_turn_elsewhere(phone, store, sid)
        assert stack(phone)[-1] == f"/play/village/{sid}/round-end"
        assert phone.page.route == f"/play/village/{sid}/round-end"
        find_id(phone, "round-end")
        tap(phone, "round-end-to-table")
        phone.settle()
        assert stack(phone)[-1] == f"/play/village/{sid}"
        tap(phone, "banner-round-end")
        phone.settle()
        assert stack(phone)[-1] == f"/play/village/{sid}/round-end"
        phone.set_route(f"/play/village/{sid}/round-end")  # typed, or a reload
        assert stack(phone)[-1] == f"/play/village/{sid}/round-end"


def test_an_undo_on_one_phone_is_told_on_the_others(store: MemoryStore,
                                                    share: TableShare) -> None:
    """Cubes moving back without a word: the other screens are told who undid what
    (and redid), once; the phone that did it says it its own way."""
    from ..village_table.test_table import first_cube as cube_of
    from .test_turns import answer_dialog, dialog_texts

    sid = make_game(store)
    space, colour = cube_of(store, sid)
    ident = cube_id(store, sid, space, colour)
    bo = join(share, sid)
    share.choose_seat(bo, 1)
    table = f"/play/village/{sid}"
    with client(store, share, None, table) as host:
        tap(host, ident)  # Ann, on the host, takes a cube
        host.settle()
        with client(store, share, bo, table) as phone:
            tap(phone, "undo")  # Bo's phone takes it back (the setting is off) ...
            phone.settle()
            texts = dialog_texts(phone)  # ... asked first: it is not this phone's action
            assert "Not this phone's action" in texts, texts
            assert any(t.startswith("This phone did not do this: Ann took") for t in texts)
            answer_dialog(phone, "Undo")
            phone.settle()
            host.settle()
            assert any(t.startswith("Undone: Ann took") for t in phone.toasts())
            assert not any("phone undid" in t for t in phone.toasts())
            told = [t for t in host.toasts() if t.startswith("Bo's phone undid: Ann took")]
            assert len(told) == 1, host.toasts()
            tap(phone, "redo")
            phone.settle()
            answer_dialog(phone, "Redo")
            phone.settle()
            host.settle()
            assert any(t.startswith("Bo's phone redid: Ann took") for t in host.toasts())
            tap(phone, "undo")  # asked again, and "Cancel": Ann's take stands
            phone.settle()
            answer_dialog(phone, "Cancel")
            phone.settle()
            assert store.load(sid).events[-1]["body"]["type"] == "take_cube"


def test_the_host_table_says_phones_can_join_until_the_share_screen_is_opened(
        store: MemoryStore, share: TableShare) -> None:
    """The walk-through's host found "Let phones join" only by the QR icon's tooltip: the
    host's table says it in a banner with the button, until that screen is opened once."""
    sid = make_game(store)
    with client(store, share, None, f"/play/village/{sid}") as host:
        banner = find_id(host, "banner-share")
        words = [t for c, _ in host.walk(banner) for t in host.own_texts(c)]
        assert any("Phones can join this game" in w for w in words), words
        button = next(c for c, _ in host.walk(banner) if getattr(c, "on_click", None))
        host.dispatch(button, "click")
        host.settle()
        assert stack(host)[-1] == f"/play/village/{sid}/share"
        host.dispatch(host.page.views[-1].appbar.leading, "click")  # type: ignore[union-attr,arg-type]
        host.settle()
        assert stack(host)[-1] == f"/play/village/{sid}"
        with pytest.raises(AssertionError):
            find_id(host, "banner-share")
    member = join(share, sid)  # a phone has joined: a new window of the host has no hint
    share.choose_seat(member, 0)
    with client(store, share, None, f"/play/village/{sid}") as host, \
            pytest.raises(AssertionError):
        find_id(host, "banner-share")
    with client(store, share, member, f"/play/village/{sid}") as phone, \
            pytest.raises(AssertionError):  # never on a phone
        find_id(phone, "banner-share")


@pytest.mark.parametrize("width", [360, 1024])
def test_the_share_screen_is_one_column_clear_of_the_scrollbar(store: MemoryStore,
                                                               share: TableShare,
                                                               width: float) -> None:
    """The walk-through's host saw the scrollbar over "Stop sharing" at 1024 px: the
    screen is one centred column that leaves the right edge to the scrollbar, and the QR
    code with its white frame fits in it."""
    from companion.app.table_mode.host_screen import SCROLLBAR_PX
    sid = make_game(store)
    with client(store, share, None, f"/play/village/{sid}/share", width) as host:
        host.settle()
        find_id(host, "share-stop")
        view = host.page.views[-1]
        column = view.controls[0]
        assert isinstance(column, ft.Column) and column.width is not None
        assert column.width <= width - 2 * 16 - SCROLLBAR_PX
        frame: Any = find_id(host, "share-qr").content
        assert frame.content.width + 2 * 8 <= column.width
        assert view.horizontal_alignment == ft.CrossAxisAlignment.CENTER
