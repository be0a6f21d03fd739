"""The wizard's component check (issue 20, point 5): every estimate on one screen, "All
match my box" or a confirmation or correction per value; answers persist, and a returning
player whose answers are all saved confirms nothing."""

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


def rows(app: AppHarness) -> list[str]:
    return [str(c.identifier) for c, _ in app.walk(find_id(app, "component-check"))
            if isinstance(c, ft.Semantics) and (c.identifier or "").startswith("estimate-tab")]


def shown(app: AppHarness, identifier: str) -> bool:
    return bool(app.find_all(identifier=identifier))


def test_every_estimate_of_this_game_is_listed_with_a_drawing(store: MemoryStore) -> None:
    with open_app(store, "/new/village") as app:
        to_check_step(app)
        tabs = rows(app)
        assert tabs == ["estimate-tab-setup_cards", "estimate-tab-time_track_length",
                        "estimate-tab-chronicle_sections", "estimate-tab-graveyard_slots",
                        "estimate-tab-council_advance_time",
                        "estimate-tab-church_advance_grain",
                        "estimate-tab-scriptorium_train_time",
                        "estimate-tab-stable_train_time",
                        "estimate-tab-travel_cities"]  # no Karla in a 2-player game
        assert f"Checked: 0 of {len(tabs)}" in app.visible_texts()
        # A compact list: no drawing, no quote until a value is opened.
        assert not shown(app, "schematic-setup-card") and not shown(app, "why-setup_cards")
        assert "12" in texts_under(app, "estimate-tab-time_track_length")  # a number: said
        tap(app, "estimate-tab-setup_cards")
        assert "Setup card, 2 players" in texts_under(app, "schematic-setup-card")
        assert shown(app, "why-setup_cards")
        for tab, drawing in [("time_track_length", "schematic-time-track"),
                             ("chronicle_sections", "schematic-chronicle"),
                             ("graveyard_slots", "schematic-graveyard"),
                             ("council_advance_time", "schematic-council"),
                             ("church_advance_grain", "schematic-church"),
                             ("stable_train_time", "schematic-training"),
                             ("travel_cities", "schematic-travel")]:
            tap(app, f"estimate-tab-{tab}")
            assert find_id(app, drawing)
            assert not shown(app, "schematic-setup-card")  # one value open at a time
        tap(app, "estimate-tab-travel_cities")  # closed again
        assert not shown(app, "schematic-travel")


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
        tap(app, "estimate-tab-setup_cards")
        tap(app, "estimate-confirm")
        assert f"Checked: 1 of {ESTIMATES_2P}" in app.visible_texts()
        assert "Confirmed by you" in texts_under(app, "estimate-setup_cards")
        assert store.get_setting("calibration:village:big-box")["setup_cards"]["2"]["spaces"]
        assert "setup_cards.2" in store.get_setting("calibration_checked:village:big-box")
    with open_app(store, "/new/village") as app:
        to_check_step(app)
        assert f"Checked: 1 of {ESTIMATES_2P}" in app.visible_texts()
        assert "Confirmed by you" in texts_under(app, "estimate-setup_cards")
        assert "The others match my box" in app.visible_texts()
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
        tap(app, "estimate-tab-setup_cards")
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
        assert rows(app)[-3:] == ["estimate-tab-karla_track_spaces",
                                  "estimate-tab-karla_fate_after",
                                  "estimate-tab-karla_action_order"]
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
        tap(app, "estimate-tab-setup_cards")
        tap(app, "estimate-confirm")  # the setup card; the others stay unchecked
        app.click("Start game")
        dialog = app.find("Values not checked yet")
        assert dialog is not None
        assert (f"{ESTIMATES_2P - 1} values not checked yet. They are estimates and may differ "
                "from your box; the game keeps the values it starts with.") in app.visible_texts()
        assert store.list_sessions() == []  # nothing started yet
        app.click("Check them")  # back to the check, "All match" at its top
        assert store.list_sessions() == []
        assert shown(app, "estimate-all-match")
        assert "Not checked yet (estimate)" in texts_under(app, "estimate-time_track_length")
        app.click("Start game")
        app.click("Start anyway")
        (summary,) = store.list_sessions()
        assert app.page.views[-1].route == f"/play/village/{summary.id}"


def test_one_value_left_is_said_in_the_singular(store: MemoryStore) -> None:
    with open_app(store, "/new/village") as app:
        to_check_step(app)
        for tab in rows(app)[:-1]:
            tap(app, tab)
            tap(app, "estimate-confirm")
        assert f"Checked: {ESTIMATES_2P - 1} of {ESTIMATES_2P}" in app.visible_texts()
        app.click("Start game")
        assert any(t.startswith("1 value not checked yet. It is an estimate")
                   for t in app.visible_texts())


def test_all_values_checked_one_by_one_starts_at_once(store: MemoryStore) -> None:
    with open_app(store, "/new/village") as app:
        to_check_step(app)
        for tab in rows(app):
            tap(app, tab)
            tap(app, "estimate-confirm")
        assert f"Checked: {ESTIMATES_2P} of {ESTIMATES_2P}" in app.visible_texts()
        app.dispatch(app.find_all("Start game")[-1][0], "click")  # the wizard's own Start
        assert app.find_all("Values not checked yet") == []
        assert len(store.list_sessions()) == 1


def test_all_match_is_one_tap_and_saves_what_one_by_one_saves(store: MemoryStore) -> None:
    one_by_one = MemoryStore()
    with open_app(one_by_one, "/new/village") as app:
        to_check_step(app)
        for tab in rows(app):
            tap(app, tab)
            tap(app, "estimate-confirm")
    with open_app(store, "/new/village") as app:
        to_check_step(app)
        check = texts_under(app, "component-check")
        # "All match my box" comes before the list (in view on a phone: the browser test).
        assert check.index("All match my box") < check.index("Setup card")
        tap(app, "estimate-all-match")
        assert f"Checked: {ESTIMATES_2P} of {ESTIMATES_2P}" in app.visible_texts()
        assert texts_under(app, "component-check").count("Confirmed by you") == ESTIMATES_2P
        assert not shown(app, "estimate-all-match")
        for key in ("calibration:village:big-box", "calibration_checked:village:big-box"):
            assert store.get_setting(key) == one_by_one.get_setting(key), key
        tap(app, "check-start")  # Start where "All match" was: no scrolling down to it
        assert app.find_all("Values not checked yet") == []
        (summary,) = store.list_sessions()
        assert app.page.views[-1].route == f"/play/village/{summary.id}"


def test_one_correction_then_the_others_match(store: MemoryStore) -> None:
    with open_app(store, "/new/village") as app:
        to_check_step(app)
        assert "All match my box" in app.visible_texts()
        tap(app, "estimate-tab-time_track_length")
        tap(app, "estimate-correct")
        app.set_value(fields_in(app, "estimate-time_track_length")["Time track"], "14")
        tap(app, "estimate-save")
        assert "Corrected by you" in texts_under(app, "estimate-time_track_length")
        assert "All match my box" not in app.visible_texts()
        tap(app, "estimate-all-match")  # "The others match my box"
        assert f"Checked: {ESTIMATES_2P} of {ESTIMATES_2P}" in app.visible_texts()
        assert "Corrected by you" in texts_under(app, "estimate-time_track_length")
        assert "14" in texts_under(app, "estimate-time_track_length")
        assert texts_under(app, "component-check").count("Confirmed by you") == ESTIMATES_2P - 1
        assert store.get_setting("calibration:village:big-box")["time_track_length"] == 14
        tap(app, "check-start")
        sid = store.list_sessions()[0].id
        assert HUB.get(sid).session.comp.v("time_track_length") == 14  # type: ignore[union-attr]


def test_all_match_with_a_correction_open_keeps_what_was_typed(store: MemoryStore) -> None:
    """A refused correction names its field and keeps the text; "The others match my box"
    then confirms the rest and leaves that value's editor as typed, to be fixed."""
    with open_app(store, "/new/village") as app:
        to_check_step(app)
        tap(app, "estimate-tab-time_track_length")
        tap(app, "estimate-correct")
        app.set_value(fields_in(app, "estimate-time_track_length")["Time track"], "lots")
        tap(app, "estimate-save")
        assert "Time track: must be a whole number, at least 2" in app.visible_texts()
        assert store.get_setting("calibration:village:big-box", None) is None
        assert "The others match my box" in app.visible_texts()
        tap(app, "estimate-all-match")
        assert f"Checked: {ESTIMATES_2P - 1} of {ESTIMATES_2P}" in app.visible_texts()
        assert "Not checked yet (estimate)" in texts_under(app, "estimate-time_track_length")
        field = fields_in(app, "estimate-time_track_length")["Time track"]
        assert field.value == "lots" and field.error
        assert "time_track_length" not in store.get_setting("calibration:village:big-box")
        app.set_value(field, "13")
        tap(app, "estimate-save")
        assert f"Checked: {ESTIMATES_2P} of {ESTIMATES_2P}" in app.visible_texts()
        assert store.get_setting("calibration:village:big-box")["time_track_length"] == 13


def test_a_returning_player_confirms_nothing(store: MemoryStore) -> None:
    with open_app(store, "/new/village") as app:
        to_check_step(app, players=3)
        tap(app, "estimate-all-match")
        tap(app, "check-start")
    saved = store.get_setting("calibration_checked:village:big-box")
    with open_app(store, "/new/village") as app:
        assert "Step 1 of 3: Game" in app.visible_texts()  # the check has nothing to ask
        app.click("Next")
        for seat, name in enumerate(["Ann", "Bo", "Cy"]):
            field = cast(ft.TextField,
                         cast(ft.Semantics, find_id(app, f"seat-name-{seat}")).content)
            app.set_value(field, name)
        app.click("Next")
        assert "Step 3 of 3: Options" in app.visible_texts()
        assert shown(app, "check-done") and not shown(app, "component-check")
        tap(app, "check-review")  # still there to look at
        assert "Step 4 of 4: Check your components" in app.visible_texts()
        assert f"Checked: {ESTIMATES_2P} of {ESTIMATES_2P}" in app.visible_texts()
        assert not shown(app, "estimate-all-match")
        app.click("Previous step")
        app.click("Start game")  # on the options step: no question, no check
        assert app.find_all("Values not checked yet") == []
        assert len(store.list_sessions()) == 2
    assert store.get_setting("calibration_checked:village:big-box") == saved
    with open_app(store, "/new/village") as app:  # another player count: another card
        to_check_step(app, players=2)
        assert f"Checked: {ESTIMATES_2P - 1} of {ESTIMATES_2P}" in app.visible_texts()
        assert "The others match my box" in app.visible_texts()
        assert "Not checked yet (estimate)" in texts_under(app, "estimate-setup_cards")

