"""Solo setup and the solo-only rules: start player, the next-start-player marker as a
coin, and the achievements (with the Inn/Port/Marriage raises)."""

from __future__ import annotations

import pytest

from companion.village.rules.errors import RuleError
from companion.village.scoring import achievement, score_payload, sheet_from_state
from companion.village.session import VillageSession
from companion.village.state import EndState
from tests.village_solo.helpers import (
    HUMAN,
    KARLA,
    check_invariants,
    cmd,
    end_round,
    new_session,
    resolve_fates,
    set_board,
    take,
)


def test_solo_setup() -> None:
    s = new_session(first_draw=None)
    st = s.state
    assert st.solo and [p.kind for p in st.players] == ["human", "karla"]
    assert st.players[KARLA].coins == 0 and st.players[HUMAN].coins == 1
    side = sorted(m.id for m in st.members_of(KARLA) if m.loc == "karla:side")
    building = sorted(m.id for m in st.members_of(KARLA) if m.loc == "karla:building")
    assert side == ["red-1a", "red-1b", "red-1c", "red-1d", "red-2a", "red-2b", "red-2c"]
    assert building == ["red-3a", "red-3b", "red-4a", "red-4b"]
    assert st.karla is not None
    assert st.karla.fate == {"top": [False] * 3, "bottom": [False] * 3}
    assert st.karla.last_space == -1
    assert st.market_front == [True, True, True, False, False]  # the 2-player market
    # You are the start player: no start-player draw, no seat compensation.
    assert st.start_player == HUMAN
    assert [p.draw for p in st.pending] == ["bag"]
    assert st.players[HUMAN].grain == 0 and not st.players[HUMAN].cubes
    check_invariants(st, s.comp)


def test_you_are_start_player_every_round() -> None:
    s = new_session()
    for round_ in (2, 3):
        end_round(s, bag_seed=round_)
        st = s.state
        assert st.round == round_
        assert st.start_player == HUMAN and st.current == HUMAN and st.stage == "take"


def _take_marker(s) -> None:
    """Your council cube + council entry with privilege 1: you take the marker."""
    s.execute(cmd("adjust", player=HUMAN, field="cubes", key="green", delta=2))
    set_board(s, {"council": ["brown", "pink", "orange"], "harvest": ["brown", "pink"]})
    take(s, "council", "brown", end=False)
    s.execute(cmd("council_enter", member="blue-1a", privilege={"level": 1}))
    assert s.state.next_start_holder == HUMAN


def test_next_start_marker_spent_as_a_coin() -> None:
    """單人遊戲 註記: the marker may be used as a coin (then it goes back to the supply),
    only before the new-round phase."""
    s = new_session()
    _take_marker(s)
    coins = s.state.players[HUMAN].coins
    s.execute(cmd("next_start_marker_coin"))
    st = s.state
    assert st.players[HUMAN].coins == coins + 1
    assert st.marker_coin_holder() == HUMAN and st.next_start_spent
    with pytest.raises(RuleError) as exc:
        s.execute(cmd("next_start_marker_coin"))
    assert exc.value.field == "type"
    # Off the council for this round: privilege 1 finds no marker.
    s.execute(cmd("end_turn"))
    resolve_fates(s)
    take(s, "council", "pink", end=False)
    s.execute(cmd("council_privilege", privilege={"level": 1}))
    assert s.state.marker_coin_holder() == HUMAN
    s.execute(cmd("end_turn"))
    resolve_fates(s)
    end_round(s)
    st = s.state
    # New round: unpaid, the marker went back to the council (takeable again) and is no
    # longer among your coins; you still start.
    assert st.next_start_holder is None and not st.next_start_spent
    assert st.players[HUMAN].coins == coins
    assert st.start_player == HUMAN


def test_the_marker_coin_paid_is_gone_and_not_taken_twice() -> None:
    s = new_session()
    _take_marker(s)
    coins = s.state.players[HUMAN].coins
    s.execute(cmd("next_start_marker_coin"))
    s.execute(cmd("end_turn"))
    resolve_fates(s)
    # Your well: 2 green + 1 coin; the coin paid is the marker.
    s.execute(cmd("adjust", player=HUMAN, field="cubes", key="green", delta=2))
    s.execute(cmd("well", colour="green", coins=1))
    st = s.state
    assert st.players[HUMAN].coins == coins
    assert st.marker_coin_holder() is None and st.next_start_spent  # gone this round
    s.execute(cmd("end_turn"))
    end_round(s)
    st = s.state
    assert st.players[HUMAN].coins == coins  # nothing more taken at the new round
    # Paid, it stays in the supply (not back on the council: test_rulebook_fixes).
    assert st.next_start_holder is None and st.next_start_spent


def test_the_marker_coin_cannot_be_banked_round_after_round() -> None:
    s = new_session()
    coins = s.state.players[HUMAN].coins
    _take_marker(s)  # round 1: your member enters the council with privilege 1
    for round_ in (1, 2):
        if round_ == 2:  # round 2: privilege 1 again from the council
            set_board(s, {"council": ["brown", "pink"], "harvest": ["brown", "pink"]})
            take(s, "council", "brown", end=False)
            s.execute(cmd("council_privilege", privilege={"level": 1}))
        s.execute(cmd("next_start_marker_coin"))
        assert s.state.players[HUMAN].coins == coins + 1
        s.execute(cmd("end_turn"))
        resolve_fates(s)
        end_round(s, bag_seed=round_)
        assert s.state.players[HUMAN].coins == coins


def test_a_marker_coin_held_at_the_end_never_scores() -> None:
    s = new_session()
    _take_marker(s)
    coins = s.state.players[HUMAN].coins
    s.execute(cmd("next_start_marker_coin"))
    st = s.state
    # Held now: the tracked score counts only your own coins.
    assert sheet_from_state(st, s.comp).players[0].categories["coins"] == coins
    s.execute(cmd("end_turn"))
    resolve_fates(s)
    # Mutation: the game has ended and this is your last turn.
    s.state.end = EndState(triggered_by=KARLA, during_market=False, order_set=True)
    set_board(s, {"harvest": ["brown"]})
    take(s, "harvest", "brown")  # your final turn; then the final mass
    s.enter_draw({"items": ["monk"] * 4})
    st = s.state
    assert st.phase == "scoring"
    assert st.players[HUMAN].coins == coins and st.marker_coin_holder() is None
    assert sheet_from_state(st, s.comp).players[0].categories["coins"] == coins


def test_the_old_lasting_coin_command_is_refused_but_old_logs_still_fold() -> None:
    s = new_session()
    _take_marker(s)
    with pytest.raises(RuleError) as exc:
        s.execute(cmd("spend_next_start_marker"))
    assert exc.value.field == "type" and "next_start_marker_coin" in exc.value.message
    # A stored engine-1 log holding it replays as it did: a lasting coin.
    coins = s.state.players[HUMAN].coins
    s.events.append({"seq": len(s.events), "group": s.group + 1, "at": "",
                     "body": {"type": "spend_next_start_marker"}})
    replayed = VillageSession(s.setup, s.comp, s.events)
    assert replayed.state.players[HUMAN].coins == coins + 1
    assert replayed.state.next_start_holder is None and replayed.state.next_start_spent


def test_unspent_marker_returns_to_the_council_before_the_bag_fill() -> None:
    s = new_session()
    _take_marker(s)
    s.execute(cmd("end_turn"))
    coins = s.state.players[HUMAN].coins
    end_round(s)
    st = s.state
    assert st.next_start_holder is None and not st.next_start_spent
    assert st.players[HUMAN].coins == coins  # not converted into a coin
    assert st.start_player == HUMAN
    with pytest.raises(RuleError) as exc:
        s.execute(cmd("next_start_marker_coin"))
    assert exc.value.field == "type"


def test_marker_may_be_spent_during_the_mass_before_the_new_round() -> None:
    s = new_session()
    _take_marker(s)
    s.execute(cmd("end_turn"))
    st = s.state
    st.members["blue-2a"].loc = "bag"  # mutation: a member of yours in the bag
    set_board(s, {"harvest": ["brown"]})
    take(s, "harvest", "brown")                 # the last cube; the turn ends
    assert s.state.phase == "mass_buyout"
    coins = s.state.players[HUMAN].coins
    s.execute(cmd("next_start_marker_coin"))
    assert s.state.players[HUMAN].coins == coins + 1
    s.execute(cmd("mass_buyout", members=["blue-2a"]))  # paid with the marker
    st = s.state
    assert st.members["blue-2a"].loc == "church:1"
    assert st.players[HUMAN].coins == coins and st.marker_coin_holder() is None


@pytest.mark.parametrize(("total", "expansions", "name"), [
    (0, [], "apprentice"), (39, [], "apprentice"), (40, [], "traveller"),
    (49, [], "traveller"), (50, [], "master"), (60, [], "grandmaster"),
    (70, [], "genius"), (79, [], "genius"), (80, [], "sage"), (200, [], "sage"),
    (49, ["inn"], "apprentice"), (50, ["inn"], "traveller"),
    (44, ["port"], "apprentice"), (45, ["port"], "traveller"),
    (54, ["marriage"], "apprentice"), (55, ["marriage"], "traveller"),
    (99, ["inn", "port", "marriage"], "grandmaster"),
    (100, ["inn", "port", "marriage"], "genius"),
    (109, ["inn", "port", "marriage"], "genius"),
    (110, ["inn", "port", "marriage"], "sage"),
    (50, ["inn", "inn"], "traveller"),  # a raise counts once per expansion
])
def test_achievements_with_expansion_raises(total: int, expansions: list[str],
                                            name: str) -> None:
    s = new_session(first_draw=None)
    assert achievement(s.comp, total, expansions) == name


def test_tracked_solo_sheet_scores_you_only_with_an_achievement() -> None:
    s = new_session()
    st = s.state
    st.players[HUMAN].prestige = 41  # mutation: a final position
    st.players[HUMAN].coins = 0
    sheet = sheet_from_state(st, s.comp)
    assert [p.name for p in sheet.players] == ["Chris"]
    assert sheet.players[0].total == 41 and sheet.players[0].achievement == "traveller"
    assert sheet_from_state(st, s.comp, ["port"]).players[0].achievement == "apprentice"


def test_score_file_solo_achievement() -> None:
    sheet = score_payload({"game": "village", "solo": True, "expansions": ["inn"],
                           "players": [{"name": "Chris", "prestige": 60}]})
    assert sheet.players[0].achievement == "master"
