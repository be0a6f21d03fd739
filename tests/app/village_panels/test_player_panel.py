"""Player panel: the time ring and +time, counters with −/+ (errors name the field),
family by place, and the action forms that apply what the player chose."""

from __future__ import annotations

import flet as ft
import pytest

from companion.village.read import Reader, TimeMarker

from ..harness import AppHarness
from .conftest import (
    acting,
    has_text,
    new_game,
    open_panel,
    pick,
    tap,
    texts_in,
    toasts,
    value_of,
)


def ring_label(app: AppHarness) -> str:
    ring = app.find_as(ft.Semantics, identifier="time-ring")
    return str(ring.label)


def test_plus_two_moves_the_marker_and_passing_the_quill_owes_a_death() -> None:
    game = new_game()
    game.session.state.players[0].time = 11  # Position: one space before the quill
    with open_panel(game, "player/0") as app:
        assert ring_label(app) == "Time marker on space 12 of 12"
        assert value_of(app, "ring-to-quill") == "1 to the quill"
        tap(app, "time-plus-2")
        assert game.session.state.players[0].time == 1
        assert ring_label(app) == "Time marker on space 2 of 12"
        notice = app.find_as(ft.Semantics, identifier="deaths-owed")
        assert isinstance(notice.content, ft.Text)
        assert "Ann passed the quill: deaths owed 1" in str(notice.content.value)
        assert has_text(app, "Deaths owed: 1")  # in the ring's centre too


def test_time_spent_outside_ones_turn_asks_for_the_death_on_the_table() -> None:
    game = new_game()
    game.session.state.players[1].time = 11  # Position: Bo, not the current player
    with open_panel(game, "player/1") as app:
        tap(app, "time-plus-1")
        notice = app.find(identifier="pending-notice")
        assert notice is not None
        assert has_text(app, "Bo must choose which member dies")
        app.click("Open the table")
        assert app.page.views[-1].route == f"/play/village/{game.sid}"


def test_grain_above_the_cap_is_refused_naming_the_field() -> None:
    game = new_game()
    game.session.state.players[0].grain = 4  # Position
    with open_panel(game, "player/0") as app:
        tap(app, "adjust-grain-plus")
        assert value_of(app, "adjust-grain-value") == "5"
        tap(app, "adjust-grain-plus")
        assert value_of(app, "adjust-grain-value") == "5"
        assert game.session.state.players[0].grain == 5
        shown = toasts(app)
        # in words, without the command's field ("delta")
        assert any("At most 5 grain" in t and "delta" not in t for t in shown), shown


def test_cubes_goods_and_cities_are_corrected_with_the_supply() -> None:
    game = new_game()
    supply = game.session.state.supply["pink"]
    with open_panel(game, "player/0") as app:
        tap(app, "adjust-cubes-pink-plus")
        tap(app, "adjust-goods-ox-plus")
        assert value_of(app, "adjust-cubes-pink-value") == "1"
        assert value_of(app, "adjust-goods-ox-value") == "1"
        assert game.session.state.supply["pink"] == supply - 1
        pick(app, "city-4")
        assert game.session.state.players[0].cities == [4]
        assert app.find_as(ft.Chip, key="city-4").selected
        pick(app, "city-4")
        assert game.session.state.players[0].cities == []


def test_family_tab_groups_members_by_place_with_generations() -> None:
    game = new_game()
    st = game.session.state
    st.members["red-1a"].loc = "council:2"  # Position
    st.members["red-1b"].loc = "church:3"
    st.members["red-2a"].loc = "bag"
    with open_panel(game, "player/0") as app:
        tap(app, "tab-family")
        rows = {c.key: [t for sub, _ in app.walk(c) for t in app.own_texts(sub)]
                for c, _ in app.find_all(control_type=ft.Container)
                if str(c.key or "").startswith("family-")}
        assert rows["family-farmyard"][-2:] == ["number 1 ×2", "2"]
        assert rows["family-council:2"][-2:] == ["number 1", "1"]
        assert rows["family-church:3"][-2:] == ["number 1", "1"]
        assert rows["family-bag"][-2:] == ["number 2", "1"]
        assert rows["family-supply"][-2:] == ["number 2 ×2, number 3 ×2, number 4 ×2", "6"]


def test_actions_are_disabled_off_turn_with_the_reason() -> None:
    game = acting("crafts", "pink")
    with open_panel(game, "player/1") as app:
        tap(app, "tab-actions")
        assert has_text(app, "It is Ann's turn.")
        assert app.find_as(ft.Control, key="apply-action").disabled
        tap(app, "tab-overview")  # corrections stay available
        tap(app, "time-plus-1")
        assert game.session.state.players[1].time == 1


def test_crafts_trains_and_produces_with_the_printed_time_and_adds_the_goods() -> None:
    game = acting("crafts", "pink")
    with open_panel(game, "player/0") as app:
        tap(app, "tab-actions")  # the crafts form is preselected: the cube came from there
        # Nobody is trained in the wainwright yet: training is offered with producing.
        assert app.find_as(ft.Control, key="apply-action").disabled is False
        assert value_of(app, "crafts-pay-summary") == "4 time"  # train 2 + produce 2
        tap(app, "apply-action")
        st = game.session.state
        assert st.players[0].goods.get("wagon") == 1 and st.players[0].time == 4
        assert len(st.members_at("workshop:wainwright", 0)) == 1 and st.action_done
        tap(app, "tab-overview")
        assert value_of(app, "adjust-goods-wagon-value") == "1"


def test_crafts_produce_only_with_a_member_already_trained() -> None:
    game = acting("crafts", "pink")
    game.session.state.members["red-1a"].loc = "workshop:scriptorium"  # Position
    with open_panel(game, "player/0") as app:
        tap(app, "tab-actions")
        pick(app, "crafts-building-scriptorium")
        assert value_of(app, "crafts-pay-summary") == "2 time"  # produce only
        tap(app, "apply-action")
        assert game.session.state.players[0].goods.get("scroll") == 1


def test_crafts_buy_offers_cubes_first_then_coins_and_the_cost_stays_editable() -> None:
    game = acting("crafts", "pink")  # Ann holds the pink she took and 1 coin
    with open_panel(game, "player/0") as app:
        tap(app, "tab-actions")
        pick(app, "crafts-mode-buy")
        pick(app, "crafts-building-smithy")
        assert value_of(app, "crafts-pay-summary") == "1× pink · 1× coin"  # pink + orange
        tap(app, "crafts-pay-edit")
        tap(app, "crafts-pay-coins-minus")  # the table agrees on less: the user edits
        assert value_of(app, "crafts-pay-summary") == "1× pink"
        tap(app, "apply-action")
        # Not the printed cost (issue 19.3): asked beside Apply, nothing applied yet, the
        # form keeps what was entered.
        asked = texts_in(app, "pay-differs")
        assert "Not the printed cost" in asked and "1× pink · 1× orange" in asked
        assert "Coins may stand in only for influence cubes" in asked
        assert game.session.state.players[0].goods.get("plough") is None
        assert value_of(app, "crafts-pay-summary") == "1× pink"
        assert not toasts(app)
        app.click("That's what we paid")
        p = game.session.state.players[0]
        assert p.goods.get("plough") == 1 and p.coins == 1 and p.cubes.get("pink") == 0
        bought = [e["body"] for e in game.session.events if e["body"]["type"] == "crafts_buy"]
        assert bought[-1]["pay"]["cubes"] == {"pink": 1} and bought[-1]["pay"]["override"]
        # Apply (not "… and end the turn"): confirming does not end Ann's turn.
        assert game.session.state.current == 0 and game.session.state.stage == "act"
        assert not app.find_all(identifier="pay-differs")


def test_the_log_shows_a_payment_the_table_confirmed() -> None:
    game = acting("crafts", "pink")
    game.execute({"type": "crafts_buy", "building": "smithy",
                  "pay": {"cubes": {"pink": 1}, "override": True}})
    with open_panel(game, "log") as app:
        assert has_text(app, "paid as entered, not the printed cost: 1× pink")


def test_crafts_stable_asks_horse_or_ox() -> None:
    game = acting("crafts", "orange")
    with open_panel(game, "player/0") as app:
        tap(app, "tab-actions")
        pick(app, "crafts-building-stable")
        assert app.find_as(ft.Control, key="apply-action").disabled  # horse or ox still to choose
        assert has_text(app, "Choose everything above to apply.")
        pick(app, "crafts-goods-ox")
        assert value_of(app, "crafts-pay-summary") == "6 time"  # train 3 + produce 3
        tap(app, "apply-action")
        st = game.session.state
        assert st.players[0].goods.get("ox") == 1 and st.players[0].time == 6
        assert len(st.members_at("workshop:stable", 0)) == 1


def test_council_enter_with_a_privilege() -> None:
    game = acting("council", "green")
    st = game.session.state
    st.players[0].cubes["green"] = 2  # Position: two green to pay
    st.supply["green"] -= 1
    with open_panel(game, "player/0") as app:
        tap(app, "tab-actions")
        assert value_of(app, "council-pay-summary") == "1 time · 2× green"
        pick(app, "council-priv-1")
        assert has_text(app, "Take the next-start-player marker")
        tap(app, "apply-action")
        st = game.session.state
        assert len(st.members_at("council:1", 0)) == 1
        assert st.next_start_holder == 0 and st.players[0].cubes["green"] == 0


def test_council_advance_with_the_two_cube_privilege() -> None:
    game = acting("council", "green")
    st = game.session.state
    st.members["red-1a"].loc = "council:1"  # Position
    st.players[0].goods["scroll"] = 1
    with open_panel(game, "player/0") as app:
        tap(app, "tab-actions")
        pick(app, "council-mode-advance")
        # 1 green only, but a scroll: the printed alternative is offered.
        assert value_of(app, "council-pay-summary") == "2 time · 1× Scroll"
        pick(app, "council-priv-2")
        pick(app, "council-cubes-brown")
        pick(app, "council-cubes-pink")
        tap(app, "apply-action")
        p = game.session.state.players[0]
        assert game.session.state.members["red-1a"].loc == "council:2"
        assert p.cubes.get("brown") == 1 and p.cubes.get("pink") == 1
        assert p.goods.get("scroll") == 0


def test_travel_to_a_new_city_with_its_reward() -> None:
    game = acting("travel", "orange")
    game.session.state.players[0].goods["wagon"] = 1  # Position
    with open_panel(game, "player/0") as app:
        tap(app, "tab-actions")
        assert app.find_as(ft.Control, key="apply-action").disabled  # no city chosen yet
        pick(app, "travel-city-2")
        tap(app, "travel-route-orange-plus")  # the route shows one orange cube
        assert value_of(app, "travel-pay-summary") == "2 time · 1× orange · 1× Wagon"
        pick(app, "travel-reward-prestige")
        tap(app, "apply-action")
        st = game.session.state
        assert st.players[0].cities == [2] and st.players[0].prestige == 3
        assert len(st.members_at("travel:2", 0)) == 1 and st.players[0].goods["wagon"] == 0


def test_church_pays_brown_or_three_time() -> None:
    game = acting("church", "brown")
    with open_panel(game, "player/0") as app:
        tap(app, "tab-actions")
        assert value_of(app, "church-pay-edit-summary") == "1× brown"
        pick(app, "church-pay-time")
        assert value_of(app, "church-pay-edit-summary") == "3 time"
        tap(app, "apply-action")
        st = game.session.state
        assert len(st.members_at("bag", 0)) == 1 and st.players[0].time == 3
        assert st.players[0].cubes["brown"] == 1
        assert has_text(app, "puts a number-1 member into the black bag")


def test_family_birth_and_harvest() -> None:
    game = acting("family", "pink")
    with open_panel(game, "player/0") as app:
        tap(app, "tab-actions")
        assert has_text(app, "A number-2 member comes from the supply onto the farmyard.")
        tap(app, "apply-action")
        assert len(game.session.state.members_at("farmyard", 0)) == 5
    game = acting("harvest", "pink")
    with open_panel(game, "player/0") as app:
        tap(app, "tab-actions")
        tap(app, "apply-action")
        assert game.session.state.players[0].grain == 2


def test_another_phone_sees_the_change() -> None:
    game = new_game()
    with open_panel(game, "player/0") as one, open_panel(game, "player/0") as two:
        tap(one, "adjust-coins-plus")
        two.settle()
        assert value_of(two, "adjust-coins-value") == "2"


def test_council_privilege_in_2011_takes_one_colour_twice() -> None:
    """004 의회 2): 「원하는 색큐브 2개」 (two cubes of the colours you want): the 2011 form
    has one row per cube, so one colour can be picked twice (issue 19.2)."""
    game = new_game(3, {"council": ["green"]}, edition="2011")
    game.execute({"type": "take_cube", "space": "council", "colour": "green"})
    st = game.session.state
    st.members["red-1a"].loc = "council:2"  # Position
    pink = st.players[0].cubes.get("pink", 0)
    with open_panel(game, "player/0") as app:
        tap(app, "tab-actions")
        pick(app, "council-mode-privilege")
        pick(app, "council-priv-2")
        assert has_text(app, "one colour twice is fine")
        pick(app, "council-cubes-1-pink")
        pick(app, "council-cubes-2-pink")
        tap(app, "apply-action")
        assert game.session.state.players[0].cubes.get("pink") == pink + 2


def test_the_ring_shows_the_engines_marker(monkeypatch: pytest.MonkeyPatch) -> None:
    """The ring draws the Reader's time marker (issue 21: the app computes no printed
    value): a marker no state could give shows up as it is."""
    monkeypatch.setattr(Reader, "time_marker", lambda self, player: TimeMarker(
        position=2, space=3, length=9, to_quill=5))
    with open_panel(new_game(), "player/0") as app:
        assert ring_label(app) == "Time marker on space 3 of 9"
        assert value_of(app, "ring-to-quill") == "5 to the quill"
        assert len(app.find_all(key="ring-space-8")) == 1
        assert app.find_all(key="ring-space-9") == []


def test_council_advance_offers_the_members_the_engine_lets_move_up(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The council form offers to advance exactly the members the Reader says may move up
    (issue 21: the app knows no top level): first the engine's own answer, then "none may"
    (which no board with a member on level 1 gives)."""
    game = acting("council", "green")
    st = game.session.state
    st.members["red-1a"].loc = "council:1"  # Position: one low, one on the top level
    st.members["red-1b"].loc = f"council:{game.session.comp.n('council_levels')}"
    low, top = "council-member-council:1|1", \
        f"council-member-council:{game.session.comp.n('council_levels')}|1"
    with open_panel(game, "player/0") as app:
        tap(app, "tab-actions")
        pick(app, "council-mode-advance")
        assert len(app.find_all(key=low)) == 1 and app.find_all(key=top) == []
    monkeypatch.setattr(Reader, "council_can_advance", lambda self, member: False)
    with open_panel(game, "player/0") as app:
        tap(app, "tab-actions")
        pick(app, "council-mode-advance")
        assert app.find_all(key=low) == [] and app.find_all(key=top) == []
