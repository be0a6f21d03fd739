"""What an action changed (issue 20): the engine's comparison of the states before and
after, for the app to say where the player is looking."""

from __future__ import annotations

from companion.village.changes import MemberChange, PlayerChange, changes
from companion.village.session import VillageSession

from .conftest import TRACK, acting, end_turn, give, put, started, take


def run(session: VillageSession, *commands: dict[str, object]) -> list[PlayerChange]:
    """Execute `commands` in order; the changes from before the first to after the last."""
    before = session.state
    notes: list[dict[str, object]] = []
    for command in commands:
        notes += session.execute(command).note_data
    return changes(before, session.state, session.comp, notes)


def test_travel_time_and_the_quill_goods_cubes_member_points_and_city() -> None:
    s = acting("travel", colour="orange")
    give(s, 0, cubes={"brown": 2}, goods={"wagon": 1}, time=3)
    out = run(s, {"type": "travel", "member": "blue-1a", "city": 1,
                  "route_cubes": {"brown": 2}, "reward": "prestige"})
    assert [c.player for c in out] == [0]
    ann = out[0]
    assert ann.time_spent == 2 and ann.time == 5 and ann.to_quill == TRACK - 5
    assert ann.quill_passed == 0
    assert ann.goods == {"wagon": -1} and ann.cubes == {"brown": -2}
    assert ann.prestige == 3 and ann.cities == [1]
    assert ann.members == [MemberChange("blue-1a", 1, "moved", "farmyard", "travel:1")]
    assert ann.grain == 0 and ann.coins == 0 and ann.customers == []


def test_travel_and_end_turn_together_are_one_summary() -> None:
    s = acting("travel", colour="orange")
    give(s, 0, goods={"wagon": 1})
    out = run(s, {"type": "travel", "member": "blue-1a", "city": 2, "reward": "coin"},
              {"type": "end_turn"})
    ann = out[0]
    assert ann.player == 0 and ann.time_spent == 2 and ann.coins == 1
    assert ann.members[0].after == "travel:2" and ann.cities == [2]
    assert s.state.current == 1  # the turn ended, the summary still covers it


def test_harvest_gains_grain_and_nothing_else_for_the_others() -> None:
    s = acting("harvest")
    grain = s.state.players[0].grain
    out = run(s, {"type": "harvest"})
    assert len(out) == 1 and out[0].player == 0
    assert out[0].grain == s.state.players[0].grain - grain > 0
    assert out[0].goods == {} and out[0].members == []


def test_a_birth() -> None:
    s = acting("family")
    out = run(s, {"type": "family_birth"})
    born = out[0].members
    assert len(born) == 1 and born[0].kind == "born" and born[0].before is None
    assert born[0].after == "farmyard"


def test_passing_the_quill_and_the_death_at_the_end_of_the_turn() -> None:
    """The rulebook's smithy example: plague cube (2 time, past the quill), smithy training
    and a plough, then at the end of the turn the member just trained dies."""
    s = started(3, {"crafts": ["plague", "brown", "brown", "brown"]})
    put(s, "blue-1a", "council:1")  # position: as in test_time_and_death
    put(s, "blue-1c", "bag")
    put(s, "blue-1d", "bag")
    give(s, 0, time=TRACK - 2)
    out = run(s, {"type": "take_cube", "space": "crafts", "colour": "plague"},
              {"type": "crafts_train", "building": "smithy", "train_member": "blue-1b"},
              {"type": "end_turn"}, {"type": "choose_death", "member": "blue-1b"})
    chris = out[0]
    assert chris.quill_passed == 1
    assert chris.time_spent == 2 + 3 + 3 and chris.time == 6
    assert chris.to_quill == TRACK - 6
    assert chris.goods == {"plough": 1}
    assert chris.members == [MemberChange("blue-1b", 1, "died", "farmyard",
                                          "chronicle:crafts")]


def test_a_single_step_past_the_quill_is_told_by_the_note() -> None:
    s = started(3, {"crafts": ["plague", "brown", "brown", "brown"]})
    give(s, 0, time=TRACK - 1)
    out = run(s, {"type": "take_cube", "space": "crafts", "colour": "plague"})
    assert out[0].quill_passed == 1 and out[0].time_spent == 2 and out[0].time == 1


def test_time_taken_back_over_the_quill_is_negative() -> None:
    s = started(3, {"crafts": ["plague", "brown", "brown", "brown"]})
    give(s, 0, time=TRACK - 1)
    take(s, "crafts", "plague")  # past the quill: a death owed
    out = run(s, {"type": "take_back_time", "player": 0, "amount": 2})
    assert out[0].time_spent == -2 and out[0].time == TRACK - 1
    assert s.state.players[0].deaths_pending == 0


def test_nothing_changed_is_an_empty_list() -> None:
    s = started(3)
    assert changes(s.state, s.state, s.comp) == []


def test_the_player_whose_turn_it_was_comes_first() -> None:
    s = acting("harvest")
    end_turn(s)  # Julie's turn now
    before = s.state
    s.execute({"type": "adjust", "player": 0, "field": "coins", "key": None, "delta": 1})
    s.execute({"type": "adjust", "player": 1, "field": "coins", "key": None, "delta": 2})
    out = changes(before, s.state, s.comp)
    assert [(c.player, c.coins) for c in out] == [(1, 2), (0, 1)]
