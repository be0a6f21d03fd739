"""Time and death (rulebook 時間流逝, 家族成員過世 with both of its examples)."""

from __future__ import annotations

import pytest

from .conftest import TRACK, end_turn, give, noted, put, refused, started, take


def test_the_marker_wraps_and_passing_the_quill_owes_a_death() -> None:
    s = started(3, {"crafts": ["plague", "brown", "brown", "brown"]})
    give(s, 0, time=TRACK - 1)
    out = take(s, "crafts", "plague")
    p = s.state.players[0]
    assert p.time == 1 and p.deaths_pending == 1
    assert noted(out.notes, "Chris", "passed the quill")
    # Not at once: the death waits for the end of the turn.
    assert not s.state.pending


def test_reaching_the_last_space_is_not_passing_the_quill() -> None:
    s = started(3, {"crafts": ["plague", "brown", "brown", "brown"]})
    give(s, 0, time=TRACK - 3)
    take(s, "crafts", "plague")
    assert s.state.players[0].time == TRACK - 1
    assert s.state.players[0].deaths_pending == 0
    end_turn(s)
    assert not s.state.pending and s.state.current == 1


def test_rulebook_smithy_example_death_at_the_end_of_the_turn() -> None:
    """Chris takes a plague cube for the crafts action (2 time, passing the quill), trains
    a gen-1 member on the smithy (time) and makes a plough (3 time). Only then, at the end
    of his turn, one of his two gen-1 members on the board dies: he chooses the one he just
    placed, who goes to the crafts section of the chronicle."""
    s = started(3, {"crafts": ["plague", "brown", "brown", "brown"]})
    # Position: one gen-1 member already on the council, two in the black bag.
    put(s, "blue-1a", "council:1")
    put(s, "blue-1c", "bag")
    put(s, "blue-1d", "bag")
    give(s, 0, time=TRACK - 2)
    take(s, "crafts", "plague")
    assert s.state.players[0].time == 0 and s.state.players[0].deaths_pending == 1
    s.execute({"type": "crafts_train", "building": "smithy", "train_member": "blue-1b"})
    p = s.state.players[0]
    assert p.goods == {"plough": 1}
    assert p.time == 3 + 3  # smithy training (estimate 3) + plough (3)
    assert s.state.members["blue-1b"].loc == "workshop:smithy"
    end_turn(s)
    st = s.state
    assert st.pending[0].kind == "death" and st.pending[0].player == 0
    assert st.current == 0  # the next turn waits for the death
    with refused(s, "type"):
        take(s, "harvest", st.spaces["harvest"][0])
    out = s.execute({"type": "choose_death", "member": "blue-1b"})
    st = s.state
    assert st.members["blue-1b"].loc == "chronicle:crafts"
    assert noted(out.notes, "Chris", "gen-1", "chronicle", "crafts")
    assert st.players[0].deaths_pending == 0
    assert st.current == 1 and st.stage == "take"


def test_only_the_lowest_generation_can_die() -> None:
    s = started(3, {"crafts": ["plague", "brown", "brown", "brown"]})
    # Position: gen 1 on the council, a gen-2 member born onto the farmyard.
    for mid in ("blue-1b", "blue-1c", "blue-1d"):
        put(s, mid, "bag")
    put(s, "blue-1a", "council:2")
    put(s, "blue-2a", "farmyard")
    give(s, 0, time=TRACK - 1)
    take(s, "crafts", "plague")
    end_turn(s)
    with refused(s, "member"):
        s.execute({"type": "choose_death", "member": "blue-2a"})
    s.execute({"type": "choose_death", "member": "blue-1a"})
    assert s.state.members["blue-1a"].loc == "chronicle:council"


def test_members_in_the_bag_or_the_supply_cannot_die() -> None:
    s = started(3, {"crafts": ["plague", "brown", "brown", "brown"]})
    # Position: every gen-1 member in the black bag; one gen-2 member on the farmyard.
    for mid in ("blue-1a", "blue-1b", "blue-1c", "blue-1d"):
        put(s, mid, "bag")
    put(s, "blue-2a", "farmyard")
    give(s, 0, time=TRACK - 1)
    take(s, "crafts", "plague")
    end_turn(s)
    with refused(s, "member"):
        s.execute({"type": "choose_death", "member": "blue-1a"})  # in the bag
    with refused(s, "member"):
        s.execute({"type": "choose_death", "member": "blue-2b"})  # in the supply
    s.execute({"type": "choose_death", "member": "blue-2a"})
    assert s.state.members["blue-2a"].loc == "chronicle:farm"


def test_with_no_visible_member_nobody_dies() -> None:
    s = started(3, {"crafts": ["plague", "brown", "brown", "brown"]})
    # Position: every born member is in the black bag.
    for mid in ("blue-1a", "blue-1b", "blue-1c", "blue-1d"):
        put(s, mid, "bag")
    give(s, 0, time=TRACK - 1)
    take(s, "crafts", "plague")
    out = end_turn(s)
    st = s.state
    assert not st.pending and st.current == 1
    assert st.players[0].deaths_pending == 0
    assert noted(out.notes, "Chris", "nobody dies")
    assert all(m.loc == "bag" for m in st.members_of(0) if m.gen == 1)


@pytest.mark.parametrize(("loc", "section"), [
    ("farmyard", "chronicle:farm"), ("workshop:stable", "chronicle:crafts"),
    ("council:3", "chronicle:council"), ("church:2", "chronicle:church"),
    ("travel:4", "chronicle:travel")])
def test_the_dead_member_goes_to_the_section_of_where_it_worked(loc: str, section: str) -> None:
    s = started(3, {"crafts": ["plague", "brown", "brown", "brown"]})
    for mid in ("blue-1b", "blue-1c", "blue-1d"):
        put(s, mid, "bag")
    put(s, "blue-1a", loc)
    give(s, 0, time=TRACK - 1)
    take(s, "crafts", "plague")
    end_turn(s)
    s.execute({"type": "choose_death", "member": "blue-1a"})
    assert s.state.members["blue-1a"].loc == section


@pytest.mark.parametrize(("chosen", "goes_to"), [("blue-1a", "graveyard"),
                                                 ("blue-1b", "chronicle:farm")])
def test_rulebook_church_example_full_section_sends_to_the_graveyard(chosen: str,
                                                                      goes_to: str) -> None:
    """Chris passed the quill and must choose one of his blue gen-1 members. The one on
    level 4 of the church track goes to the graveyard (the chronicle's church section is
    full); any other gen-1 member goes to its chronicle section."""
    s = started(3, {"crafts": ["plague", "brown", "brown", "brown"]})
    put(s, "blue-1a", "church:4")
    put(s, "blue-1c", "bag")
    put(s, "blue-1d", "bag")
    # Position: the church section is full of other players' dead members.
    for mid in ("yellow-4a", "yellow-4b", "red-4a"):
        put(s, mid, "chronicle:church")
    assert s.state.chronicle_free("church") == 0
    give(s, 0, time=TRACK - 1)
    take(s, "crafts", "plague")
    end_turn(s)
    out = s.execute({"type": "choose_death", "member": chosen})
    assert s.state.members[chosen].loc == goes_to
    if goes_to == "graveyard":
        assert noted(out.notes, "Chris", "gen-1", "graveyard")
    assert s.state.end is None  # neither the chronicle nor the graveyard is full


def test_two_passes_in_one_go_owe_two_deaths() -> None:
    s = started(3, {"crafts": ["plague", "brown", "brown", "brown"]})
    give(s, 0, time=TRACK - 1)
    take(s, "crafts", "plague")  # passes once
    s.execute({"type": "spend_time", "player": 0, "amount": TRACK})  # and once more
    assert s.state.players[0].deaths_pending == 2
    end_turn(s)
    assert [p.kind for p in s.state.pending] == ["death", "death"]
    s.execute({"type": "choose_death", "member": "blue-1a"})
    s.execute({"type": "choose_death", "member": "blue-1b"})
    assert not s.state.pending and s.state.current == 1
    assert len(s.state.members_in("chronicle", 0)) == 2


def test_time_spent_outside_ones_turn_kills_at_once() -> None:
    # A hand correction for another player: there is no turn end of theirs to wait for.
    s = started(3)
    give(s, 1, time=TRACK - 1)
    s.execute({"type": "spend_time", "player": 1, "amount": 1})
    assert s.state.pending[0].kind == "death" and s.state.pending[0].player == 1
    s.execute({"type": "choose_death", "member": "yellow-1a"})
    assert s.state.members["yellow-1a"].loc == "chronicle:farm"
