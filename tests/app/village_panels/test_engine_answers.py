"""The UI holds no rules: what it offers is what the engine accepts (companion.village.
queries), its numbers come from the engine or the component data, Karla's notes are
picked by key. Several tests swap in a house rule on the engine and check that the
screen follows it — a copy of the rule kept in the UI would not."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import flet as ft
import pytest

from companion.app.village.table import view_model
from companion.app.village.table.cubes import DIMMED
from companion.app.village.table.karla_board import karla_notes
from companion.village import chance, engine
from companion.village.rules import market, turns
from companion.village.rules.context import Ctx
from companion.village.rules.errors import RuleError, require
from companion.village.state import EndState, Pending

from ..harness import AppHarness
from .conftest import (
    Game,
    acting,
    has_text,
    new_game,
    open_panel,
    tap,
    texts_in,
    village_app_routes,
)


@contextmanager
def open_table(game: Game) -> Iterator[AppHarness]:
    with AppHarness(game.store, routes=village_app_routes()) as app:
        app.set_route(f"/play/village/{game.sid}")
        yield app


def tap_id(app: AppHarness, identifier: str) -> None:
    """Tap the control marked `identifier` (a semantics identifier, as the web DOM has)."""
    root = app.find(identifier=identifier)
    target = next(c for c, _ in app.walk(root) if getattr(c, "on_click", None) is not None)
    app.dispatch(target, "click")


def cube_chips(app: AppHarness) -> dict[str, bool]:
    """identifier -> offered (tappable and not dimmed; a dimmed cube's tap only says why
    it may not be taken), for every cube on the action spaces."""
    spaces = app.find(identifier="action-spaces")
    return {str(c.identifier): any(getattr(x, "on_click", None) is not None
                                   and x.data != DIMMED for x, _ in app.walk(c))
            for c, _ in app.walk(spaces)
            if isinstance(c, ft.Semantics) and str(c.identifier).startswith("cube-")}


# ---- the table ------------------------------------------------------------------------------
def test_a_cube_is_tappable_when_the_engine_would_take_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = new_game(wanted={"harvest": ["brown", "plague"]})
    real = engine.HANDLERS["take_cube"]

    def no_plague(ctx: Ctx, cmd: Any) -> None:  # a house rule: plague cubes stay put
        require(cmd.colour != "plague", "colour", "plague stays on the board")
        real(ctx, cmd)

    monkeypatch.setitem(engine.HANDLERS, "take_cube", no_plague)
    with open_table(game) as app:
        chips = cube_chips(app)
        assert chips and all(ok == ("-plague-" not in ident) for ident, ok in chips.items())


def test_free_action_in_the_final_turns_with_an_empty_board() -> None:
    game = new_game()
    st = game.session.state
    for space in st.spaces:
        st.spaces[space] = []  # Position: final turns, nothing left on the board
    st.end = EndState(triggered_by=1, during_market=False)
    with open_table(game) as app:
        assert app.find(identifier="turn-buttons")
        assert app.find(text="Well").disabled  # type: ignore[attr-defined]
        app.click("Free action")
        assert game.session.state.space_taken == "free"
        assert app.find_all("Free action") == []


def test_the_well_offers_what_the_engine_accepts() -> None:
    game = new_game()
    ann = game.session.state.players[0]
    ann.cubes, ann.coins = {"pink": 3, "green": 2, "orange": 1}, 1
    with open_table(game) as app:
        app.click("Well")
        body = texts_in(app, "dialog-well")
        assert "Ann returns 3 influence cubes of one colour" in body
        assert "3 Pink cubes" in body or "3 pink cubes" in body
        assert "1 of them paid as coins" in body  # green: 2 cubes + 1 coin
        assert app.find_all(identifier="well-orange") == []
        tap_id(app, "well-green")
        ann = game.session.state.players[0]
        assert ann.cubes["green"] == 0 and ann.coins == 0


def test_the_wells_price_is_the_engines(monkeypatch: pytest.MonkeyPatch) -> None:
    def two_cube_well(ctx: Ctx, cmd: Any) -> None:  # a house rule: the well takes 2
        st = ctx.state
        p = st.players[st.current]
        require(st.stage == "take" and st.cubes_on_board() > 0, "well", "closed")
        require(p.cubes.get(cmd.colour, 0) + cmd.coins >= 2 >= cmd.coins, "colour",
                "needs 2")
        p.cubes[cmd.colour] -= 2 - cmd.coins
        st.stage, st.space_taken = "act", "well"

    monkeypatch.setitem(engine.HANDLERS, "well", two_cube_well)
    game = new_game()
    ann = game.session.state.players[0]
    ann.cubes, ann.coins = {"pink": 2}, 0
    with open_table(game) as app:
        app.click("Well")
        body = texts_in(app, "dialog-well")
        assert "Ann returns 2 influence cubes of one colour" in body
        tap_id(app, "well-pink")
        assert game.session.state.space_taken == "well"


def test_nobody_can_pay_the_well_says_so() -> None:
    game = new_game()
    ann = game.session.state.players[0]
    ann.cubes, ann.coins = {"pink": 1}, 0
    with open_table(game) as app:
        app.click("Well")
        assert "Ann has no 3 cubes of one colour (coins can stand in)." in texts_in(
            app, "dialog-well")


def test_the_rounds_draw_is_offered_for_replacing_when_the_engine_allows(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = new_game()
    with open_table(game) as app:
        tap_id(app, "table-instructions-toggle")  # the instructions card opens on a tap
        assert app.find(identifier="round-draw")
        assert app.find_all("Let the app draw again")

    def never(_ctx: Ctx, draw: str) -> None:  # a house rule: draws are final
        raise RuleError("draw", "draws are final")

    monkeypatch.setattr(chance, "_revert_for_redraw", never)
    view_model.forget(game.session)  # the rule changed, the game did not: ask again
    with open_table(game) as app:
        if app.find_all(identifier="table-instructions-toggle"):
            tap_id(app, "table-instructions-toggle")
        # The draw's list stays until it is ticked (issue 20); its ways to redraw go.
        assert app.find(identifier="round-draw")
        assert app.find_all("Let the app draw again") == []
        assert app.find_all("We drew physically") == []


def test_the_compensation_colours_are_the_engines(monkeypatch: pytest.MonkeyPatch) -> None:
    game = new_game(4)  # Position: the fourth seat chooses a compensation cube
    game.session.state.pending.insert(0, Pending(kind="compensation_cube", player=3))
    real = engine.HANDLERS["choose_compensation_cube"]

    def no_brown(ctx: Ctx, cmd: Any) -> None:  # a house rule: no brown compensation
        require(cmd.colour != "brown", "colour", "no brown")
        real(ctx, cmd)

    monkeypatch.setitem(engine.HANDLERS, "choose_compensation_cube", no_brown)
    with open_table(game) as app:
        assert app.find(identifier="dialog-compensation")
        assert app.find_all(identifier="compensation-brown") == []
        assert app.find(identifier="compensation-green")


# ---- the panels -----------------------------------------------------------------------------
def test_the_action_forms_follow_the_engines_check(monkeypatch: pytest.MonkeyPatch) -> None:
    game = acting("church", "brown")
    real = turns.check_action

    def no_church(ctx: Ctx, action: str) -> int:  # a house rule: the church is closed
        if action == "church":
            raise RuleError("action", "the church is closed")
        return real(ctx, action)

    with open_panel(game, "player/0") as app:
        tap(app, "tab-actions")
        assert not app.find(key="apply-action").disabled  # type: ignore[attr-defined]
    monkeypatch.setattr(turns, "check_action", no_church)
    with open_panel(game, "player/0") as app:
        tap(app, "tab-actions")
        assert app.find(identifier="action-blocked")
        assert app.find(key="apply-action").disabled  # type: ignore[attr-defined]


def test_whether_a_sale_is_free_is_the_engines(monkeypatch: pytest.MonkeyPatch) -> None:
    game = acting("market", "green")
    game.execute({"type": "market_pass"})  # Ann passes: Bo sells, normally paying
    with open_panel(game, "market") as app:
        assert has_text(app, "This sale costs 1 green and 1 time")
    real = engine.HANDLERS["market_serve"]

    def every_sale_free(ctx: Ctx, cmd: Any) -> None:  # a house rule
        md = ctx.state.market_day
        assert md is not None
        md.trigger, md.free_sale_used = md.seller, False
        real(ctx, cmd)

    monkeypatch.setitem(engine.HANDLERS, "market_serve", every_sale_free)
    assert engine.HANDLERS["market_serve"] is not market.serve
    with open_panel(game, "market") as app:
        assert has_text(app, "This first sale is free.")


def test_church_levels_come_from_the_component_data() -> None:
    game = new_game()
    with open_panel(game, "mass") as app:
        assert [c.key for c, _ in app.walk(app.find(identifier="church-track"))
                if str(c.key or "").startswith("church-")] == [
            "church-1", "church-2", "church-3", "church-4"]
    game.session.comp.values["score_church"].value = [2, 3, 4]  # a three-level box
    with open_panel(game, "mass") as app:
        assert [c.key for c, _ in app.walk(app.find(identifier="church-track"))
                if str(c.key or "").startswith("church-")] == [
            "church-1", "church-2", "church-3"]


def test_karlas_notes_are_picked_by_key_not_by_english_text() -> None:
    game = new_game(1, solo=True, karla_colour="purple")
    session = game.session
    karla = session.state.players[session.state.karla.player].name  # type: ignore[union-attr]
    session.last_note_data = [
        {"key": "karla_takes", "params": {"colour": "green", "space": "family", "pos": 1}},
        {"key": "d4_again", "params": {"colour": "green"}},
        {"key": "to_graveyard", "params": {"player": karla, "gen": 1}},
        {"key": "nobody_dies", "params": {"player": "Ann"}},
        {"key": "No green on the board: roll again", "params": {}},  # not a key
        {"key": "The die shows green", "params": {}},
    ]
    assert [n["key"] for n in karla_notes(session)] == ["karla_takes", "d4_again",
                                                        "to_graveyard"]


def test_a_final_turn_on_an_empty_board_says_any_action_is_free() -> None:
    """The header does not ask for a cube the board does not have: in the final turns an
    empty board means one action for free (the engine's free_action)."""
    game = new_game()
    st = game.session.state
    for space in st.spaces:  # Position: the last cube was taken, the game end triggered
        st.spaces[space] = []
    st.end = EndState(triggered_by=2, during_market=False)
    with AppHarness(game.store, routes=village_app_routes()) as app:
        app.set_route(f"/play/village/{game.sid}")
        texts = app.visible_texts()
        assert "Ann: the board is empty — do any one action for free (final turn)" in texts
        app.click("Free action")
        assert game.session.state.space_taken == "free"
