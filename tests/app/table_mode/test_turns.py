"""Table mode, headless: every phone shows whose turn it is; the phone whose seat comes up is
told at once (highlighted line, a vibration); acting for another seat asks first (or is
refused by the host's setting) and the log names both seats; a watching phone shows no
active game control; the app bar title fits 360 px; Back works on a phone's screens."""

from __future__ import annotations

from typing import Any

import flet as ft
import pytest
from flet.controls.base_control import BaseControl

from companion.app.table_mode.sharing import TableShare
from companion.app.village.hub import HUB
from companion.app.village.table.cubes import DIMMED
from companion.app.village.table.screen import title_size
from companion.i18n import Translator
from companion.share.registry import ShareRegistry
from companion.store.memory import MemoryStore
from companion.village.commands import TakeCube
from companion.village.service import VillageService

from ..harness import AppHarness, FakeClient
from ..village_table.conftest import find_id, make_game, tap
from ..village_table.test_table import cube_id, first_cube
from .test_members import client, join, routes, stack


@pytest.fixture
def share() -> TableShare:
    return TableShare(ShareRegistry(), "127.0.0.2", 8550)


def enabled_taps(app: AppHarness, identifier: str) -> list[BaseControl]:
    """Controls under `identifier` a finger could use: a tap or change handler, and
    neither the control nor any control around it disabled."""
    root = find_id(app, identifier)
    found = []
    for control, ancestors in app.walk(root, visible_only=True):
        handler = getattr(control, "on_click", None) or getattr(control, "on_change", None)
        if handler is None:
            continue
        if getattr(control, "disabled", False) or any(
                getattr(a, "disabled", False) for a in ancestors):
            continue
        found.append(control)
    return found


def seat_line(app: AppHarness) -> str:
    for ident in ("seat-state-up", "seat-state"):
        try:
            node = find_id(app, ident)
        except AssertionError:
            continue
        return str(getattr(node, "label", ""))
    raise AssertionError("no seat line")


def answer_dialog(app: AppHarness, button: str) -> None:
    dialogs = [d for d in app.page._dialogs.controls if getattr(d, "open", False)]
    assert dialogs, "no question was asked"
    dialog = dialogs[-1]
    assert isinstance(dialog, ft.AlertDialog), dialog
    for action in dialog.actions:
        if isinstance(action, ft.Control) and getattr(action, "content", None) == button:
            app.dispatch(action, "click")
            return
    raise AssertionError(f"no {button!r} in {[getattr(a, 'content', a) for a in dialog.actions]}")


def dialog_texts(app: AppHarness) -> list[str]:
    return [t for d in app.page._dialogs.controls if getattr(d, "open", False)
            for c, _ in app.walk(d) for t in app.own_texts(c)]


def phone_client(store: MemoryStore, share: TableShare, member: str, route: str) -> Any:
    """A joined phone on Android (so it may vibrate)."""
    from contextlib import contextmanager

    from companion.app.shell import build_main
    from companion.app.store_access import AsyncStore

    @contextmanager
    def run() -> Any:
        astore = AsyncStore(store)
        real = build_main(astore, routes(), share=share)

        async def main(page: ft.Page) -> None:
            page.client_user_agent = f"Mozilla/5.0 Phone vc-member/{member}"
            await real(page)

        app = AppHarness(main=main, client=FakeClient(initial_route=route,
                                                      platform="android"))
        try:
            with app:
                yield app
        finally:
            astore.close()

    return run()


def test_the_up_seat_is_told_and_another_seat_is_asked_first(store: MemoryStore,
                                                            share: TableShare) -> None:
    sid = make_game(store)  # Ann (seat 0) starts
    space, colour = first_cube(store, sid)
    ident = cube_id(store, sid, space, colour)
    bo = join(share, sid)
    share.choose_seat(bo, 1)
    table = f"/play/village/{sid}"
    with phone_client(store, share, bo, table) as phone:
        phone.settle()
        assert seat_line(phone) == "Ann's turn · you are Bo"
        assert not phone.client.calls("HapticFeedback")  # opening on it: no vibration
        # Bo's phone takes Ann's cube: asked first; "Cancel" leaves the game as it was
        tap(phone, ident)
        assert "It is Ann's turn" in dialog_texts(phone)
        answer_dialog(phone, "Cancel")
        phone.settle()
        assert all(e["body"]["type"] != "take_cube" for e in store.load(sid).events)
        # asked again, and yes: the take is recorded as Bo's phone acting for Ann
        tap(phone, ident)
        answer_dialog(phone, "Act for Ann")
        phone.settle()
        taken = store.load(sid).events[-1]
        assert taken["body"]["type"] == "take_cube"
        assert taken["by"] == {"seat": 1, "for": 0}
        # ending Ann's turn (asked again) brings the turn to Bo: told and vibrated at once
        phone.click("End turn")
        answer_dialog(phone, "Act for Ann")
        phone.settle()
        assert HUB.get(sid).session.state.current == 1  # type: ignore[union-attr]
        assert seat_line(phone) == "Your turn, Bo!"
        find_id(phone, "seat-state-up")
        assert len(phone.client.calls("HapticFeedback", "vibrate")) == 1
        # Bo's own turn: no question
        space, colour = first_cube(store, sid)
        tap(phone, cube_id(store, sid, space, colour))
        phone.settle()
        assert not dialog_texts(phone)
        assert store.load(sid).events[-1]["by"] == {"seat": 1}
        # the log names both seats for the take on Ann's turn
        phone.set_route(f"{table}/log")
        phone.settle()
        assert any("— Bo's phone, for Ann" in t for t in phone.visible_texts())


def test_the_host_setting_refuses_acting_for_another_seat(store: MemoryStore,
                                                         share: TableShare) -> None:
    sid = make_game(store)
    space, colour = first_cube(store, sid)
    ident = cube_id(store, sid, space, colour)
    bo = join(share, sid)
    share.choose_seat(bo, 1)
    share.registry.set_own_seat_only(True)
    with client(store, share, bo, f"/play/village/{sid}") as phone:
        tap(phone, ident)
        phone.settle()
        assert not dialog_texts(phone) or "It is Ann's turn" not in dialog_texts(phone)
        assert any("only for its own seat" in t for t in phone.toasts())
        assert all(e["body"]["type"] != "take_cube" for e in store.load(sid).events)


def test_the_host_switches_the_setting_on_the_share_screen(store: MemoryStore,
                                                           share: TableShare) -> None:
    sid = make_game(store)
    with client(store, share, None, f"/play/village/{sid}/share") as host:
        host.settle()
        assert not share.registry.own_seat_only
        host.toggle_switch("Phones act only for their own seat")
        assert share.registry.own_seat_only


def test_a_watching_phone_shows_no_active_game_control(store: MemoryStore,
                                                       share: TableShare) -> None:
    sid = make_game(store)
    watcher, ann = join(share, sid), join(share, sid)
    share.choose_seat(watcher, None)
    share.choose_seat(ann, 0)
    table = f"/play/village/{sid}"
    with client(store, share, watcher, table) as phone:
        phone.settle()
        assert seat_line(phone) == "Ann's turn · you are watching"
        for part in ("action-spaces", "turn-buttons", "undo", "redo",
                     "option-manual-draws"):
            assert enabled_taps(phone, part) == [], part
        assert enabled_taps(phone, "player-0")  # looking at a player still works
        space, colour = first_cube(store, sid)
        cube = find_id(phone, cube_id(store, sid, space, colour))
        assert isinstance(cube, ft.Semantics) and isinstance(cube.content, ft.Container)
        assert cube.content.data == DIMMED  # drawn as not to be taken
        phone.set_route(f"{table}/player/0")
        phone.settle()
        assert seat_line(phone) == "Ann's turn · you are watching"
        assert enabled_taps(phone, "player-panel") == []  # every stepper and form greyed
        for panel in ("market", "mass", "chronicle", "score"):
            phone.set_route(f"{table}/{panel}")
            phone.settle()
            assert enabled_taps(phone, f"{panel}-panel") == [], panel
    # the host makes a seated phone watch-only: its open table greys out at once
    with client(store, share, ann, table) as phone:
        phone.settle()
        assert seat_line(phone) == "Your turn, Ann!"
        assert enabled_taps(phone, "action-spaces")
        share.registry.set_watch_only(ann, True)
        phone.settle()
        assert enabled_taps(phone, "action-spaces") == []
        assert seat_line(phone) == "Ann's turn · you are watching"
        share.registry.set_watch_only(ann, False)
        phone.settle()
        assert enabled_taps(phone, "action-spaces")


def test_back_on_a_phone_and_the_title_at_360px(store: MemoryStore, share: TableShare) -> None:
    sid = make_game(store)
    bo = join(share, sid)
    share.choose_seat(bo, 1)
    table = f"/play/village/{sid}"
    with client(store, share, bo, f"{table}/player/1") as phone:
        phone.settle()
        phone.back()  # the panel's back: the table
        assert stack(phone) == [table]
        view = phone.page.views[-1]
        assert view.appbar is not None and view.appbar.leading is None  # nothing further
        phone.back()  # the system back on the table stays (it used to jump forward)
        assert stack(phone) == [table]
        tap(phone, "open-seat")  # My seat, and back from it
        assert stack(phone) == [table, f"{table}/seat"]
        phone.dispatch(phone.page.views[-1].appbar.leading, "click")  # type: ignore[union-attr,arg-type]
        phone.settle()
        assert stack(phone) == [table]
        phone.set_route(f"{table}/log")
        phone.back()
        assert stack(phone) == [table]
        title = phone.page.views[-1].appbar.title  # type: ignore[union-attr]
        assert isinstance(title, ft.Text) and title.value == "Round 1"
        assert title.tooltip == "Round 1" and title.size == 22  # room for it on a phone
    with client(store, share, None, table) as host:  # the host's Back goes Home
        host.dispatch(host.page.views[-1].appbar.leading, "click")  # type: ignore[union-attr,arg-type]
        host.settle()
        assert stack(host) == ["/"]


@pytest.mark.parametrize("lang", ["en", "de", "ko", "zh_Hant"])
def test_the_table_title_fits_a_phone_bar(lang: str) -> None:
    from companion.app.kit import text_width

    t = Translator(lang).t
    for title in (t("village.table.title", round=12), t("village.table.setup")):
        for leading, actions in ((True, 4), (False, 4)):  # the host's bar, a phone's bar
            size = title_size(title, 360, actions, leading)
            room = 360 - (56 if leading else 0) - actions * 48 - 32
            assert text_width(title, size) <= room or size == 14, (lang, title, size)


def test_the_own_seat_setting_lets_a_phone_undo_only_what_it_did(store: MemoryStore,
                                                                 share: TableShare) -> None:
    """A tap on Undo takes back an action as surely as a tap on a cube makes one: with
    phones acting only for their own seat, a phone undoes, redoes or goes back over its
    own actions and no one else's (a newcomer's walk-through undid the host's take from
    another seat's phone)."""
    from companion.village.commands import EndTurn, TakeCube
    from companion.village.service import VillageService

    sid = make_game(store)  # Ann (seat 0, the host) starts
    svc = VillageService(store)
    session = svc.open(sid)
    space, colour = first_cube(store, sid)
    svc.execute(sid, session, TakeCube(space=space, colour=colour))  # the host's take
    bo = join(share, sid)
    share.choose_seat(bo, 1)
    share.registry.set_own_seat_only(True)
    with client(store, share, bo, f"/play/village/{sid}") as phone:
        before = len(store.load(sid).events)
        tap(phone, "undo")
        phone.settle()
        assert any("undo only what it did itself" in t for t in phone.toasts())
        assert len(store.load(sid).events) == before  # Ann's take stands
        # Ann ends her turn on the host; Bo takes a cube on his phone and may undo it
        hub = HUB.get(sid)
        assert hub is not None

        async def host_ends_the_turn() -> None:  # on the server's loop, as the host would
            svc.execute(sid, hub.session, EndTurn())
            hub.notify()

        phone.loop.run_until_complete(host_ends_the_turn())
        phone.settle()
        space, colour = first_cube(store, sid)
        tap(phone, cube_id(store, sid, space, colour))
        phone.settle()
        assert store.load(sid).events[-1]["by"] == {"seat": 1}
        taken = len(store.load(sid).events)
        tap(phone, "undo")
        phone.settle()
        assert len(store.load(sid).events) < taken  # his own take: undone
        tap(phone, "redo")
        phone.settle()
        assert len(store.load(sid).events) == taken  # and redone
        # going back over Ann's actions from the log is refused too
        phone.set_route(f"/play/village/{sid}/log")
        phone.settle()
        first = store.load(sid).events[0]
        tap(phone, f"go-back-{first['seq']}")
        confirm = [c for c, _ in phone.find_all("Go back to here")
                   if isinstance(c, ft.FilledButton)]
        phone.dispatch(confirm[0], "click")
        phone.settle()
        assert len(store.load(sid).events) == taken
    share.registry.set_own_seat_only(False)  # the setting off: any seat's phone may
    with client(store, share, bo, f"/play/village/{sid}") as phone:
        tap(phone, "undo")
        phone.settle()
        assert len(store.load(sid).events) < taken


def test_a_phone_changing_another_board_on_its_own_turn_is_told_whose_board(
        store: MemoryStore, share: TableShare) -> None:
    """On Bo's turn, Bo's phone adds grain on Ann's board: "This is Ann's board", never
    "It is Ann's turn" (the screen says it is Bo's)."""
    from companion.village.commands import EndTurn, TakeCube
    from companion.village.service import VillageService

    sid = make_game(store)
    svc = VillageService(store)
    session = svc.open(sid)
    space, colour = first_cube(store, sid)
    svc.execute(sid, session, TakeCube(space=space, colour=colour))
    svc.execute(sid, session, EndTurn())  # Bo's turn now
    bo = join(share, sid)
    share.choose_seat(bo, 1)
    with client(store, share, bo, f"/play/village/{sid}/player/0") as phone:
        phone.settle()
        phone.click("Grain: one more")
        phone.settle()
        texts = dialog_texts(phone)
        assert "This is Ann's board" in texts and "It is Ann's turn" not in texts
        answer_dialog(phone, "Cancel")
        phone.settle()
        share.registry.set_own_seat_only(True)
        phone.click("Grain: one more")
        phone.settle()
        assert any(t.startswith("This is Ann's board: the host lets each phone act only")
                   for t in phone.toasts())


def test_a_market_sale_on_another_players_turn_is_named_a_sale(store: MemoryStore,
                                                               share: TableShare) -> None:
    """Ann takes the market cube and passes; Bo sells while it is still Ann's turn: Bo's
    line says his sale, Cy's says Bo sells (it said "Bo's turn" above "Ann's turn")."""
    from companion.village.commands import MarketPass, TakeCube
    from companion.village.service import VillageService

    sid = make_game(store, players=3)
    svc = VillageService(store)
    session = svc.open(sid)
    colour = next(c for c in session.state.spaces["market"] if c != "plague")
    svc.execute(sid, session, TakeCube(space="market", colour=colour))
    svc.execute(sid, session, MarketPass())  # Ann, who took it, sells first
    assert session.state.market_day is not None and session.state.current == 0
    bo, cy = join(share, sid), join(share, sid)
    share.choose_seat(bo, 1)
    share.choose_seat(cy, 2)
    with client(store, share, bo, f"/play/village/{sid}") as phone:
        assert seat_line(phone) == "Your sale at the market, Bo!"
    with client(store, share, cy, f"/play/village/{sid}") as phone:
        assert seat_line(phone) == "Bo to sell · you are Cy"


def test_a_refusal_for_another_seat_tells_the_phone_what_that_seat_does_next(
        store: MemoryStore, share: TableShare) -> None:
    """Bo's phone, acting for Ann after Ann already took her cube, is told that Ann ends
    the turn next, not told to end the turn itself (a stale "Act for Ann" question,
    found in the table-mode walk-through)."""
    sid = make_game(store)  # Ann (seat 0) starts
    space, colour = first_cube(store, sid)
    ident = cube_id(store, sid, space, colour)
    bo = join(share, sid)
    share.choose_seat(bo, 1)
    with phone_client(store, share, bo, f"/play/village/{sid}") as phone:
        phone.settle()
        tap(phone, ident)  # asked "Act for Ann?"; meanwhile Ann takes a cube herself
        assert "It is Ann's turn" in dialog_texts(phone)
        handle = HUB.get(sid)
        assert handle is not None
        VillageService(store).execute(sid, handle.session, TakeCube(space=space, colour=colour))
        answer_dialog(phone, "Act for Ann")
        phone.settle()
        toasts = phone.toasts()
        assert any("Ann already took a cube this turn; Ann ends the turn next" in t
                   for t in toasts), toasts
        assert not any("end the turn first" in t for t in toasts)


def test_a_phone_on_its_board_is_told_its_turn_asks_for_a_cube(store: MemoryStore,
                                                               share: TableShare) -> None:
    """A phone that reloads on its own board when its seat comes up sees whose board it
    is and what the turn asks, with the way to the table (the walk-through found a panel
    titled "Player" with no instruction)."""
    sid = make_game(store)  # Ann (seat 0) starts
    ann = join(share, sid)
    share.choose_seat(ann, 0)
    with phone_client(store, share, ann, f"/play/village/{sid}/player/0") as phone:
        phone.settle()
        assert "Ann's board" in phone.visible_texts()
        notice = find_id(phone, "turn-next")
        words = [t for c, _ in phone.walk(notice) for t in phone.own_texts(c)]
        assert "Ann: take a cube (or use the well)" in words, words
        phone.click("Open the table")
        phone.settle()
        assert phone.page.route == f"/play/village/{sid}"
    bo = join(share, sid)
    share.choose_seat(bo, 1)
    with phone_client(store, share, bo, f"/play/village/{sid}/player/1") as phone:
        phone.settle()  # not Bo's turn: his board, and no turn notice
        assert "Bo's board" in phone.visible_texts()
        with pytest.raises(AssertionError):
            find_id(phone, "turn-next")


def test_a_sellers_phone_after_the_market_day_goes_back_to_the_table(
        share: TableShare) -> None:
    """After Ann's market day, Bo's phone (a seller) is told the day is over and that Ann
    ends the turn, and is offered the table, not an End turn for Ann; Ann's phone is
    offered End turn."""
    from ..village_panels.conftest import acting
    game = acting("market", "green")  # Ann took the market cube: her market day
    for _ in range(3):
        game.execute({"type": "market_pass"})
    assert game.session.state.market_day is None
    bo, ann = join(share, game.sid), join(share, game.sid)
    share.choose_seat(bo, 1)
    share.choose_seat(ann, 0)
    with phone_client(game.store, share, bo, game.route("market")) as phone:
        phone.settle()
        assert "The market day is over: Ann, end the turn." in phone.visible_texts()
        with pytest.raises(AssertionError):
            find_id(phone, "market-end-turn")
        phone.click("Open the table")
        phone.settle()
        assert phone.page.route == f"/play/village/{game.sid}"
        assert game.session.state.current == 0  # nothing ended for Ann
    with phone_client(game.store, share, ann, game.route("market")) as phone:
        phone.settle()
        find_id(phone, "market-end-turn")
        phone.click("End turn")
        phone.settle()
        assert game.session.state.current == 1
