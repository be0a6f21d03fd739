"""Player panel corrections: every tracked value stays editable — time taken back (a
death owed cancelled), served customer tiles added, re-pointed and taken back, a member
moved to where it really stands, and Karla's members too; solo, the next-start-player
marker as a coin. Each is one logged engine command, named in the log."""

from __future__ import annotations

import flet as ft

from companion.app.village.log.model import build_entries
from companion.app.village.log.words import describe

from ..harness import AppHarness
from ..village_table.test_log import words_ctx
from .conftest import Game, has_text, new_game, open_panel, pick, tap, texts_in, value_of


def offered_places(app: AppHarness) -> set[str]:
    """The places the move correction offers (its destination chips)."""
    return {str(c.key).removeprefix("move-to-") for c, _ in app.find_all(control_type=ft.Chip)
            if str(c.key).startswith("move-to-")}


def shown(app: AppHarness, identifier: str) -> bool:
    return bool(app.find_all(identifier=identifier))


def last_log_line(app: AppHarness, game: Game) -> str:
    session = game.session
    entry = build_entries(session.setup, session.comp, session.events)[-1]
    return describe(words_ctx(), session.state, entry)


def test_minus_one_takes_back_time_and_cancels_the_death_owed() -> None:
    game = new_game()
    game.session.state.players[0].time = 11  # Position: one space before the quill
    with open_panel(game, "player/0") as app:
        tap(app, "time-plus-1")
        assert game.session.state.players[0].deaths_pending == 1
        tap(app, "time-minus-1")
        p = game.session.state.players[0]
        assert p.time == 11 and p.deaths_pending == 0
        assert not has_text(app, "deaths owed")
        assert last_log_line(app, game) == "Ann took back 1 time"
        assert game.store.load(game.sid).events[-1]["body"]["type"] == "take_back_time"


def test_customer_tiles_are_added_repointed_and_taken_back() -> None:
    game = new_game()
    stack = game.session.state.customer_stack
    with open_panel(game, "player/0") as app:
        tap(app, "tile-add")
        tap(app, "tile-add")
        assert game.session.state.players[0].customers == [0, 0]
        assert game.session.state.customer_stack == stack - 2
        for _ in range(3):
            tap(app, "tile-1-plus")
        assert value_of(app, "tile-1-value") == "3"
        assert "Customers served: 2 (3 points)" in texts_in(app, "customers")
        assert last_log_line(app, game) == "Ann: customer tile 2 corrected to 3 points"
        tap(app, "tile-0-remove")
        assert game.session.state.players[0].customers == [3]
        assert game.session.state.customer_stack == stack - 1
        assert last_log_line(app, game) == "Ann: served customer tile 1 taken back"


def test_a_tile_cannot_be_added_during_a_market_day_and_says_why() -> None:
    game = new_game(3, {"market": ["green"]})
    game.execute({"type": "take_cube", "space": "market", "colour": "green"})
    assert game.session.state.market_day is not None
    with open_panel(game, "player/0") as app:
        assert app.find_as(ft.Control, key="tile-add").disabled
        assert has_text(app, "finish the market day first")


def test_a_member_is_moved_where_it_really_stands() -> None:
    game = new_game()
    with open_panel(game, "player/0") as app:
        tap(app, "tab-family")
        assert app.find_as(ft.Control, key="move-apply").disabled  # nothing chosen yet
        pick(app, "move-group-farmyard|1")
        # The engine's spots for a player's member, the current one left out.
        offered = offered_places(app)
        assert "council:2" in offered and "church:4" in offered and "farmyard" not in offered
        assert "karla:side" not in offered
        pick(app, "move-to-council:2")
        tap(app, "move-apply")
        st = game.session.state
        assert len(st.members_at("council:2", 0)) == 1
        assert len(st.members_at("farmyard", 0)) == 3
        assert last_log_line(app, game) == \
            "Ann's number-1 member moved to council, level 2 (correction)"
        assert app.find_as(ft.Control, key="move-apply").disabled  # the draft is cleared


def test_karlas_member_moves_only_to_her_places() -> None:
    game = new_game(1, solo=True, karla_colour="purple")
    karla = next(i for i, p in enumerate(game.session.state.players) if p.kind == "karla")
    with open_panel(game, f"player/{karla}") as app:
        pick(app, "move-group-karla:side|1")
        offered = offered_places(app)
        assert offered and not offered & {"farmyard", "supply", "council:1", "travel:1"}
        assert "church:1" in offered and "bag" in offered
        pick(app, "move-to-bag")
        tap(app, "move-apply")
        assert len(game.session.state.members_at("bag", karla)) == 1


def test_solo_marker_is_offered_as_a_coin_only_while_held() -> None:
    game = new_game(1, {"council": ["green"]}, solo=True, karla_colour="purple")
    with open_panel(game, "player/0") as app:
        assert not shown(app, "marker-coin")
        # Ann takes the marker: a council cube, then council entry with privilege 1.
        game.execute({"type": "adjust", "player": 0, "field": "cubes", "key": "green",
                      "delta": 2})
        game.execute({"type": "take_cube", "space": "council", "colour": "green"})
        member = game.session.state.members_at("farmyard", 0)[0].id
        game.execute({"type": "council_enter", "member": member, "privilege": {"level": 1}})
        assert game.session.state.next_start_holder == 0
        tap(app, "tab-overview")
        assert shown(app, "marker-coin")
        coins = game.session.state.players[0].coins
        app.click("Use it as a coin")
        assert game.session.state.players[0].coins == coins + 1
        assert not shown(app, "marker-coin")
        assert last_log_line(app, game) == "Ann uses the next-start-player marker as a coin"
