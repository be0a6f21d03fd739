"""The "we drew physically" bag entry on a phone (issue 13, point 3): a full-screen sheet
whose status line and colour palette stay in view while the slots scroll, the first
empty slot marked, an error said at the top and beside its space, and Save saying why it
is not ready. Also the mass sheet's targets."""

from __future__ import annotations

from typing import Any

import flet as ft
from flet.controls.base_control import BaseControl

from companion.app.village.dialogs.common import (
    SHEET_CHROME,
    WIDE_SHEET_HEIGHT,
    WIDE_SHEET_WIDTH,
)
from companion.app.village.hub import HUB
from companion.i18n import Translator
from companion.store.memory import MemoryStore
from companion.village.service import VillageService
from companion.village.setup import PlayerSetup, VillageSetup

from ..harness import AppHarness, FakeClient
from ..tap_targets import tap_target_problems
from ..village_table.conftest import tap
from ..village_table.test_pending import play_to_mass
from .conftest import village_app_routes

CUBE_ORDER = ("brown", "pink", "orange", "green", "plague")


def manual_game(store: MemoryStore) -> str:
    setup = VillageSetup(players=[PlayerSetup(name="Ann", colour="red"),
                                  PlayerSetup(name="Bo", colour="blue")],
                         start_player=0, compensation=False)
    sid, _ = VillageService(store).create(setup, draw_mode="manual")
    return sid


def sheet(app: AppHarness) -> ft.AlertDialog:
    dialogs = [d for d in app.page._dialogs.controls if isinstance(d, ft.AlertDialog) and d.open]
    assert len(dialogs) == 1
    return dialogs[0]


def texts_under(app: AppHarness, identifier: str) -> list[str]:
    root = app.find(identifier=identifier)
    return [t for c, _ in app.walk(root, visible_only=True) for t in app.own_texts(c)]


def ancestors_of(app: AppHarness, identifier: str) -> tuple[BaseControl, ...]:
    hits = app.find_all(identifier=identifier)
    assert len(hits) == 1, identifier
    return hits[0][1]


def scrolls(ancestors: tuple[BaseControl, ...]) -> bool:
    return any(isinstance(a, ft.Column) and a.scroll is not None for a in ancestors)


def slot_label(app: AppHarness, identifier: str) -> str:
    return str(getattr(app.find(identifier=identifier), "label", ""))


def opened(store: MemoryStore, sid: str, client: FakeClient | None = None) -> AppHarness:
    return AppHarness(store, routes=village_app_routes(),
                      client=client or FakeClient(initial_route=f"/play/village/{sid}"))


def quota_and_bag(sid: str) -> tuple[dict[str, int], dict[str, int]]:
    session = HUB.get(sid).session  # type: ignore[union-attr]
    quota = {s: n for s, n in session.comp.setup_card(2).spaces.items() if n}
    return quota, dict(session.state.bag)


def test_the_sheet_fills_the_phone_and_keeps_status_and_palette_in_view() -> None:
    store = MemoryStore()
    sid = manual_game(store)
    with opened(store, sid) as app:
        app.set_route(f"/play/village/{sid}")
        dialog = sheet(app)
        assert dialog.inset_padding == ft.Padding.all(0)  # the whole phone screen
        box: Any = app.find(identifier="form-bag").content  # type: ignore[attr-defined]
        assert box.height == 800 - SHEET_CHROME
        # Status and palette sit above the scrolling slots; the slots scroll.
        assert not scrolls(ancestors_of(app, "bag-status"))
        assert not scrolls(ancestors_of(app, "bag-brush-brown"))
        assert scrolls(ancestors_of(app, "bag-slot-harvest-0"))
        # One footer row: Undo, Hide and Save side by side (not a button per line).
        save = ancestors_of(app, "bag-save")
        row = next(a for a in reversed(save) if isinstance(a, ft.Row))
        ids = {getattr(c, "identifier", None) for c, _ in app.walk(row)}
        assert {"dialog-undo", "dialog-hide", "bag-save"} <= ids
        assert tap_target_problems(app, dialog) == []


def test_first_empty_slot_marked_and_save_says_why_not_ready() -> None:
    store = MemoryStore()
    sid = manual_game(store)
    with opened(store, sid) as app:
        app.set_route(f"/play/village/{sid}")
        quota, bag = quota_and_bag(sid)
        total = sum(quota.values())
        assert f"{total} slots still empty. Next: Harvest" in texts_under(app, "bag-status")
        assert slot_label(app, "bag-slot-harvest-0") == "Next empty slot"
        assert slot_label(app, "bag-slot-harvest-1") == "Empty slot"
        brush = next(c for c in CUBE_ORDER if bag.get(c))
        tap(app, f"bag-brush-{brush}")
        tap(app, "bag-slot-harvest-0")
        assert slot_label(app, "bag-slot-harvest-1") == "Next empty slot"  # the mark moves
        assert f"{total - 1} slots still empty. Next: Harvest" in texts_under(app, "bag-status")
        # Save before every slot is filled: why, at the top and beside the space.
        tap(app, "bag-save")
        assert "Harvest: a slot is still empty" in texts_under(app, "bag-status")
        assert "The marked slot is still empty." in texts_under(app, "bag-space-harvest")
        assert texts_under(app, "bag-space-family").count("The marked slot is still empty.") == 0
        assert sheet(app).open  # nothing was lost: the cube placed stays
        assert app.find_all(identifier="bag-slot-harvest-0")
        assert slot_label(app, "bag-slot-harvest-0") != "Empty slot"
        session = HUB.get(sid).session  # type: ignore[union-attr]
        assert session.state.pending  # nothing was sent


def test_a_colour_with_none_left_is_said_at_the_top_and_beside_its_space() -> None:
    store = MemoryStore()
    sid = manual_game(store)
    with opened(store, sid) as app:
        app.set_route(f"/play/village/{sid}")
        quota, bag = quota_and_bag(sid)
        scarce = min((c for c, n in bag.items() if n), key=lambda c: bag[c])
        tap(app, f"bag-brush-{scarce}")
        slots = [(s, k) for s, n in quota.items() for k in range(n)]
        for space, k in slots[:bag[scarce]]:
            tap(app, f"bag-slot-{space}-{k}")
        space, k = slots[bag[scarce]]
        tap(app, f"bag-slot-{space}-{k}")
        top = texts_under(app, "bag-status")
        beside = texts_under(app, f"bag-space-{space}")
        message = next(t for t in top if t.startswith("No ") and t.endswith("left in the bag"))
        assert message in beside


def test_filled_sheet_is_ready_and_saves() -> None:
    store = MemoryStore()
    sid = manual_game(store)
    with opened(store, sid) as app:
        app.set_route(f"/play/village/{sid}")
        quota, bag = quota_and_bag(sid)
        left, brush = dict(bag), None
        for space, n in quota.items():
            for k in range(n):
                colour = next(c for c in CUBE_ORDER if left.get(c, 0) > 0)
                if colour != brush:
                    tap(app, f"bag-brush-{colour}")
                    brush = colour
                tap(app, f"bag-slot-{space}-{k}")
                left[colour] -= 1
        assert "Every slot is filled: Save enters the draw." in texts_under(app, "bag-status")
        tap(app, "bag-save")
        session = HUB.get(sid).session  # type: ignore[union-attr]
        assert not session.state.pending


def test_the_status_is_in_the_players_language() -> None:
    store = MemoryStore()
    sid = manual_game(store)
    de = Translator("de")
    client = FakeClient(locales=("de-DE",), initial_route=f"/play/village/{sid}")
    with opened(store, sid, client) as app:
        app.set_route(f"/play/village/{sid}")
        tap(app, "bag-save")
        harvest = de.t("space.harvest")
        assert de.t("village.form.bag.missing", space=harvest) in texts_under(app, "bag-status")
        assert de.t("forms.bag.slot_empty") in texts_under(app, "bag-space-harvest")


def test_the_mass_sheet_has_no_small_or_unnamed_targets() -> None:
    store = MemoryStore()
    sid = play_to_mass(store)
    with opened(store, sid) as app:
        app.set_route(f"/play/village/{sid}")
        assert app.find_all(identifier="form-mass")
        assert not scrolls(ancestors_of(app, "mass-monks"))
        assert tap_target_problems(app, sheet(app)) == []


def test_on_a_wide_screen_the_sheet_is_a_dialog_of_a_fixed_size() -> None:
    store = MemoryStore()
    sid = manual_game(store)
    client = FakeClient(width=1280, height=800, initial_route=f"/play/village/{sid}")
    with opened(store, sid, client) as app:
        app.set_route(f"/play/village/{sid}")
        assert sheet(app).inset_padding is None
        box: Any = app.find(identifier="form-bag").content  # type: ignore[attr-defined]
        assert box.width == WIDE_SHEET_WIDTH and box.height <= WIDE_SHEET_HEIGHT
