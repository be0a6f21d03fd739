"""The new-game wizard: steps, checks that name the field, creating the game."""

from __future__ import annotations

from typing import cast

import flet as ft

from companion.app.village.hub import HUB
from companion.store.memory import MemoryStore

from ..harness import AppHarness
from .conftest import expand_instructions, find_id, open_app, start_anyway, tap, texts_under


def name_field(app: AppHarness, seat: int) -> ft.TextField:
    return cast(ft.TextField, cast(ft.Semantics, find_id(app, f"seat-name-{seat}")).content)


def type_names(app: AppHarness, names: list[str]) -> None:
    for seat, name in enumerate(names):
        app.set_value(name_field(app, seat), name)


def test_wizard_creates_a_game_and_lands_on_the_table(store: MemoryStore) -> None:
    with open_app(store, "/new/village") as app:
        assert "Step 1 of 4: Game" in app.visible_texts()
        tap(app, "count-2")
        app.click("Next")
        assert "Step 2 of 4: Players" in app.visible_texts()
        type_names(app, ["Ann", "Bo"])
        tap(app, "colour-1-purple")
        app.click("Next")
        app.select_radio("Bo")  # start player
        app.click("Next")
        assert "Step 4 of 4: Check your components" in app.visible_texts()
        assert find_id(app, "estimate-all-match")
        start_anyway(app)
        sessions = store.list_sessions()
        assert len(sessions) == 1
        sid = sessions[0].id
        assert app.page.views[-1].route == f"/play/village/{sid}"
        assert "Bo's turn" in app.visible_texts()
        state = HUB.get(sid).session.state  # type: ignore[union-attr]
        assert [p.name for p in state.players] == ["Ann", "Bo"]
        assert state.players[1].colour == "purple" and state.start_player == 1
        assert app.client.wakelock_on  # the table keeps the phone awake


def test_bad_names_are_named_and_nothing_typed_is_lost(store: MemoryStore) -> None:
    with open_app(store, "/new/village") as app:
        app.click("Next")  # 3 players by default
        type_names(app, ["Ann", "ann", ""])
        app.click("Next")
        texts = app.visible_texts()
        assert "Name, seat 2: two players have this name" in texts
        assert "Step 2 of 4: Players" in texts
        assert [name_field(app, i).value for i in range(3)] == ["Ann", "ann", ""]
        assert name_field(app, 1).error == "two players have this name"
        assert name_field(app, 2).error == "enter a name"
        app.set_value(name_field(app, 1), "Bo")
        app.set_value(name_field(app, 2), "Cy")
        app.click("Next")
        assert "Step 3 of 4: Options" in app.visible_texts()
        app.click("Previous step")
        assert [name_field(app, i).value for i in range(3)] == ["Ann", "Bo", "Cy"]


def test_seat_order_moves_keep_the_start_player(store: MemoryStore) -> None:
    with open_app(store, "/new/village") as app:
        tap(app, "count-2")
        app.click("Next")
        type_names(app, ["Ann", "Bo"])
        app.click("Next")
        app.select_radio("Ann")
        app.click("Previous step")
        tap(app, "seat-0-down")
        assert [name_field(app, i).value for i in range(2)] == ["Bo", "Ann"]
        app.click("Next")
        app.click("Next")
        start_anyway(app)
        sid = store.list_sessions()[0].id
        state = HUB.get(sid).session.state  # type: ignore[union-attr]
        assert [p.name for p in state.players] == ["Bo", "Ann"] and state.start_player == 1


def test_colour_taken_by_another_seat_is_swapped(store: MemoryStore) -> None:
    with open_app(store, "/new/village") as app:
        tap(app, "count-2")
        app.click("Next")
        tap(app, "colour-0-yellow")  # seat 2 had yellow
        assert cast(ft.Semantics, find_id(app, "colour-0-yellow")).selected
        assert cast(ft.Semantics, find_id(app, "colour-1-red")).selected


def test_random_start_player_and_compensation_are_shown(store: MemoryStore) -> None:
    with open_app(store, "/new/village") as app:
        tap(app, "count-3")
        app.click("Next")
        type_names(app, ["Ann", "Bo", "Cy"])
        app.click("Next")
        app.select_radio("Random (drawn)")
        app.click("Next")
        start_anyway(app)
        expand_instructions(app)
        # Round 1's setup steps sit with its draw: kept until ticked (issue 20).
        notes = texts_under(app, "round-draw")
        assert any(t.endswith("is the start player") for t in notes), notes
        assert any("random influence cube" in t or "gets 1 grain" in t for t in notes), notes


def test_solo_wizard_defaults_from_settings(store: MemoryStore) -> None:
    store.set_setting("game.d4_variant", True)
    store.set_setting("game.karla_policy", "auto")
    with open_app(store, "/new/village-solo") as app:
        assert "A solo game against Karla, with the Big Box." in app.visible_texts()
        app.click("Next")
        type_names(app, ["Sol"])
        tap(app, "karla-colour-white")
        app.click("Next")
        assert cast(ft.RadioGroup, cast(ft.Semantics, find_id(app, "karla-variant")).content
                    ).value == "d4"
        assert cast(ft.RadioGroup, cast(ft.Semantics, find_id(app, "karla-policy")).content
                    ).value == "auto"
        app.click("Next")
        # The solo check lists Karla's board too.
        assert find_id(app, "estimate-tab-karla_fate_after")
        start_anyway(app)
        sid = store.list_sessions()[0].id
        session = HUB.get(sid).session  # type: ignore[union-attr]
        assert session.state.solo and session.state.players[1].colour == "white"
        assert session.setup.karla_variant == "d4" and session.karla_policy == "auto"
        assert find_id(app, "karla-board")


def test_2011_edition_offers_its_own_counts_and_colours(store: MemoryStore) -> None:
    with open_app(store, "/new/village") as app:
        tap(app, "edition-2011")
        assert app.find_all(identifier="count-5") == []
        tap(app, "count-4")
        app.click("Next")
        assert app.find_all(identifier="colour-0-purple") == []
        type_names(app, ["A", "B", "C", "D"])
        app.click("Next")
        app.click("Next")
        start_anyway(app)
        sid = store.list_sessions()[0].id
        assert HUB.get(sid).session.state.edition == "2011"  # type: ignore[union-attr]
