"""The wizard's component check: confirm or correct estimates; answers persist."""

from __future__ import annotations

from pathlib import Path
from typing import cast

import flet as ft

from companion.app.village.hub import HUB
from companion.app.village.wizard.calibration import load_estimates
from companion.store.memory import MemoryStore
from companion.store.tinydb_store import TinyDBStore

from ..harness import AppHarness
from .conftest import find_id, open_app, start_anyway, tap, texts_under

# How many estimated values a 2-player Big Box game asks about: the check's own list (the
# tab test below pins which ones, in order).
ESTIMATES_2P = len(load_estimates(MemoryStore(), "big-box", solo=False, seats=2))


def to_check_step(app: AppHarness, players: int = 2) -> None:
    tap(app, f"count-{players}")
    app.click("Next")
    for seat, name in enumerate(["Ann", "Bo", "Cy", "Di", "Ed"][:players]):
        field = cast(ft.TextField, cast(ft.Semantics, find_id(app, f"seat-name-{seat}")).content)
        app.set_value(field, name)
    app.click("Next")
    app.click("Next")


def fields_in(app: AppHarness, identifier: str) -> dict[str, ft.TextField]:
    root = find_id(app, identifier)
    return {str(c.label): c for c, _ in app.walk(root) if isinstance(c, ft.TextField)}


def test_every_estimate_of_this_game_is_listed_with_a_drawing(store: MemoryStore) -> None:
    with open_app(store, "/new/village") as app:
        to_check_step(app)
        tabs = [c.identifier for c, _ in app.walk(find_id(app, "component-check"))
                if isinstance(c, ft.Semantics) and (c.identifier or "").startswith("estimate-tab")]
        assert tabs == ["estimate-tab-setup_cards", "estimate-tab-time_track_length",
                        "estimate-tab-chronicle_sections", "estimate-tab-graveyard_slots",
                        "estimate-tab-council_advance_time",
                        "estimate-tab-church_advance_grain",
                        "estimate-tab-scriptorium_train_time",
                        "estimate-tab-stable_train_time",
                        "estimate-tab-travel_cities"]  # no Karla in a 2-player game
        assert f"Checked: 0 of {len(tabs)}" in app.visible_texts()
        assert "Setup card, 2 players" in texts_under(app, "schematic-setup-card")
        for tab, drawing in [("time_track_length", "schematic-time-track"),
                             ("chronicle_sections", "schematic-chronicle"),
                             ("graveyard_slots", "schematic-graveyard"),
                             ("council_advance_time", "schematic-council"),
                             ("church_advance_grain", "schematic-church"),
                             ("stable_train_time", "schematic-training"),
                             ("travel_cities", "schematic-travel")]:
            tap(app, f"estimate-tab-{tab}")
            assert find_id(app, drawing)


def test_every_estimate_in_the_data_has_a_label_and_a_place_in_the_order() -> None:
    from companion.app.village.wizard.calibration import ORDER
    from companion.app.village.wizard.components import LABELS
    from companion.village.components import load_components

    for edition in ("big-box", "2011"):
        for key in load_components(edition).estimates():
            assert key in LABELS and key in ORDER, (edition, key)


def test_confirm_is_remembered(store: MemoryStore) -> None:
    with open_app(store, "/new/village") as app:
        to_check_step(app)
        tap(app, "estimate-confirm")  # the setup card
        assert f"Checked: 1 of {ESTIMATES_2P}" in app.visible_texts()
        assert store.get_setting("calibration:village:big-box")["setup_cards"]["2"]["spaces"]
        assert "setup_cards.2" in store.get_setting("calibration_checked:village:big-box")
    with open_app(store, "/new/village") as app:
        to_check_step(app)
        assert f"Checked: 1 of {ESTIMATES_2P}" in app.visible_texts()
        tap(app, "estimate-tab-setup_cards")
        assert "Confirmed by you" in texts_under(app, "estimate-setup_cards")
    with open_app(store, "/new/village") as app:
        to_check_step(app, players=3)  # another card: not checked yet
        assert "Not checked yet (estimate)" in texts_under(app, "estimate-setup_cards")


def test_bad_input_is_named_and_kept(store: MemoryStore) -> None:
    with open_app(store, "/new/village") as app:
        to_check_step(app)
        tap(app, "estimate-tab-time_track_length")
        tap(app, "estimate-correct")
        field = fields_in(app, "estimate-time_track_length")["Time track"]
        app.set_value(field, "twelve")
        tap(app, "estimate-save")
        assert "Time track: must be a whole number, at least 2" in app.visible_texts()
        field = fields_in(app, "estimate-time_track_length")["Time track"]
        assert field.value == "twelve" and field.error
        assert store.get_setting("calibration:village:big-box", None) is None


def test_a_correction_the_engine_refuses_names_the_field(store: MemoryStore) -> None:
    with open_app(store, "/new/village") as app:
        to_check_step(app)
        tap(app, "estimate-correct")  # the 2-player setup card
        fields = fields_in(app, "estimate-setup_cards")
        app.set_value(fields["Harvest"], "4")  # 19 cubes: not a multiple of 2
        tap(app, "estimate-save")
        assert any(t.startswith("setup_cards.2: 19 cubes placed") for t in app.visible_texts())
        assert fields_in(app, "estimate-setup_cards")["Harvest"].value == "4"
        app.set_value(fields_in(app, "estimate-setup_cards")["Family"], "4")
        tap(app, "estimate-save")
        assert "Corrected by you" in app.visible_texts()
        card = store.get_setting("calibration:village:big-box")["setup_cards"]["2"]
        assert card["spaces"]["harvest"] == 4 and card["spaces"]["family"] == 4


def test_corrections_are_used_by_the_new_game_and_persist_on_disk(tmp_path: Path) -> None:
    store = TinyDBStore(tmp_path)
    with open_app(store, "/new/village") as app:
        to_check_step(app)
        tap(app, "estimate-tab-time_track_length")
        tap(app, "estimate-correct")
        app.set_value(fields_in(app, "estimate-time_track_length")["Time track"], "14")
        tap(app, "estimate-save")
        assert "Corrected by you" in app.visible_texts()
        start_anyway(app)
        sid = store.list_sessions()[0].id
        assert HUB.get(sid).session.comp.v("time_track_length") == 14  # type: ignore[union-attr]
        assert any(t.startswith("Time 1/14") for t in texts_under(app, "player-0"))
    reopened = TinyDBStore(tmp_path)
    with open_app(reopened, "/new/village") as app:
        to_check_step(app)
        tap(app, "estimate-tab-time_track_length")
        assert "Corrected by you" in texts_under(app, "estimate-time_track_length")


def test_solo_lists_karla_board_and_edits_the_order(store: MemoryStore) -> None:
    with open_app(store, "/new/village-solo") as app:
        app.click("Next")
        field = cast(ft.TextField, cast(ft.Semantics, find_id(app, "seat-name-0")).content)
        app.set_value(field, "Sol")
        app.click("Next")
        app.click("Next")
        tap(app, "estimate-tab-karla_action_order")
        assert find_id(app, "schematic-karla-order")
        tap(app, "estimate-correct")
        tap(app, "order-0-down")
        tap(app, "estimate-save")
        saved = store.get_setting("calibration:village:big-box")["karla_action_order"]
        assert saved[:2] == ["travel", "market"]
        tap(app, "estimate-tab-karla_fate_after")
        assert find_id(app, "schematic-karla-board")


def test_start_with_unchecked_values_asks_first(store: MemoryStore) -> None:
    with open_app(store, "/new/village") as app:
        to_check_step(app)
        tap(app, "estimate-confirm")  # the setup card; the others stay unchecked
        tap(app, "estimate-tab-setup_cards")  # look at a checked one
        app.click("Start game")
        dialog = app.find("Values not checked yet")
        assert dialog is not None
        assert (f"{ESTIMATES_2P - 1} values not checked yet. They are estimates and may differ "
                "from your box; the game keeps the values it starts with.") in app.visible_texts()
        assert store.list_sessions() == []  # nothing started yet
        app.click("Check them")  # back to the check, at the first unchecked value
        assert store.list_sessions() == []
        assert "Not checked yet (estimate)" in texts_under(app, "estimate-time_track_length")
        app.click("Start game")
        app.click("Start anyway")
        (summary,) = store.list_sessions()
        assert app.page.views[-1].route == f"/play/village/{summary.id}"


def test_one_value_left_is_said_in_the_singular(store: MemoryStore) -> None:
    with open_app(store, "/new/village") as app:
        to_check_step(app)
        for _ in range(ESTIMATES_2P - 1):
            tap(app, "estimate-confirm")
        assert f"Checked: {ESTIMATES_2P - 1} of {ESTIMATES_2P}" in app.visible_texts()
        app.click("Start game")
        assert any(t.startswith("1 value not checked yet. It is an estimate")
                   for t in app.visible_texts())


def test_all_values_checked_starts_at_once(store: MemoryStore) -> None:
    with open_app(store, "/new/village") as app:
        to_check_step(app)
        for _ in range(ESTIMATES_2P):
            tap(app, "estimate-confirm")
        assert f"Checked: {ESTIMATES_2P} of {ESTIMATES_2P}" in app.visible_texts()
        app.click("Start game")
        assert app.find_all("Values not checked yet") == []
        assert len(store.list_sessions()) == 1

