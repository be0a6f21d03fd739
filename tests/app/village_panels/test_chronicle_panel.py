"""Chronicle panel: every section's slots (used by whom, free, blocked for this player
count), the graveyard, the dead per player, and the game-end banner with final turns."""

from __future__ import annotations

import flet as ft
import pytest

from companion.village.read import Reader, Slots
from companion.village.state import EndState

from ..harness import AppHarness
from .conftest import new_game, open_panel, texts_in, value_of


def test_sections_and_graveyard_show_used_and_free_slots() -> None:
    game = new_game()
    st = game.session.state
    st.members["red-2a"].loc = "chronicle:farm"  # Position: three players, 3 slots each
    st.members["blue-2a"].loc = "chronicle:farm"
    st.members["yellow-3a"].loc = "graveyard"
    with open_panel(game, "chronicle") as app:
        assert value_of(app, "chronicle-farm-count") == "2 of 3 used · 1 free"
        assert value_of(app, "chronicle-travel-count") == "0 of 3 used · 3 free"
        assert value_of(app, "graveyard-count") == f"1 of {st.graveyard_capacity} used · " \
                                                  f"{st.graveyard_capacity - 1} free"
        ann = texts_in(app, "chronicle-players")
        assert "chronicle 1 · graveyard 0" in ann and "chronicle 0 · graveyard 1" in ann
        assert app.find_all(identifier="game-end") == []


def test_game_end_banner_names_who_still_takes_a_final_turn() -> None:
    game = new_game()
    st = game.session.state
    st.end = EndState(triggered_by=0, during_market=False)  # Position: Ann filled the last slot
    with open_panel(game, "chronicle") as app:
        banner = texts_in(app, "game-end")
        assert "Game end: triggered by Ann." in banner
        assert "Still to take a final turn: Bo, Cy" in banner


def test_during_the_final_turns_the_banner_says_whose_turn_it_is() -> None:
    game = new_game()
    st = game.session.state
    # Position: Ann triggered the end; her turn is over, Bo plays his final turn, Cy follows.
    st.end = EndState(triggered_by=0, during_market=False, final_order=[2], order_set=True)
    st.current = 1
    with open_panel(game, "chronicle") as app:
        banner = texts_in(app, "game-end")
        assert "Now: Bo's final turn." in banner
        assert "Still to take a final turn: Cy" in banner
    st.phase = "scoring"  # Position: all final turns and the final mass are over
    with open_panel(game, "chronicle") as app:
        assert "The final turns are over." in texts_in(app, "game-end")


def test_the_slots_are_the_engines_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    """The panel draws the Reader's slots (issue 21: no printed value computed in the app):
    answers no board could give show up as they are."""
    game = new_game()
    sections = list(game.session.state.chronicle_capacity)
    monkeypatch.setattr(Reader, "chronicle_slots", lambda self: {
        s: Slots(capacity=4, used=0, blocked=3) for s in sections})
    monkeypatch.setattr(Reader, "graveyard_slots",
                        lambda self: Slots(capacity=9, used=0, blocked=1))
    with open_panel(game, "chronicle") as app:
        assert value_of(app, "chronicle-farm-count") == "0 of 4 used · 4 free"
        assert value_of(app, "graveyard-count") == "0 of 9 used · 9 free"
        assert blocked_boxes(app, "chronicle-farm") == 3
        assert blocked_boxes(app, "graveyard") == 1


def blocked_boxes(app: AppHarness, identifier: str) -> int:
    root = app.find(identifier=identifier)
    return sum(1 for c, _ in app.walk(root)
               if isinstance(c, ft.Icon) and c.icon == ft.Icons.BLOCK)
