"""TallySession: fold, undo/redo, finish, chance events, field-named refusals."""

from __future__ import annotations

from typing import Any

import pytest

from companion.tally.errors import EditRejected
from companion.tally.registry import rules_for
from companion.tally.rules import SetField
from companion.tally.session import Finish, TallySession
from companion.tally.setup import TallySetup, checked_setup


def session(game: str = "villagers", names: tuple[str, ...] = ("Ann", "Bo"),
            seed: int = 5) -> TallySession[Any]:
    return TallySession(rules_for(game), TallySetup(game=game, players=names, seed=seed))


def money(s: TallySession[Any]) -> list[int]:
    return [p.money for p in s.state.players]


def test_state_is_the_fold_of_the_log() -> None:
    s = session()
    s.apply(s.read_edit({"type": "set", "player": 0, "field": "money", "value": 20}))
    s.apply(s.read_edit({"type": "adjust", "player": 1, "field": "money", "delta": -3}))
    assert money(s) == [20, 5]
    again = TallySession(s.rules, s.setup, s.events)
    assert again.state == s.state and again.events == s.events


def test_undo_pops_redo_reapplies_and_new_edit_clears_redo() -> None:
    s = session()
    s.apply(s.read_edit({"type": "set", "player": 0, "field": "money", "value": 20}))
    s.apply(s.read_edit({"type": "set", "player": 0, "field": "money", "value": 30}))
    assert s.undo() and money(s) == [20, 8] and s.can_redo
    assert s.undo() and money(s) == [8, 8] and not s.can_undo
    assert not s.undo()
    assert s.redo() and money(s) == [20, 8]
    s.apply(s.read_edit({"type": "set", "player": 1, "field": "money", "value": 1}))
    assert not s.can_redo and not s.redo()
    assert money(s) == [20, 1]


def test_refused_edit_changes_nothing_and_names_the_field() -> None:
    s = session()
    before = (s.state, s.events)
    with pytest.raises(EditRejected) as caught:
        s.apply(s.read_edit({"type": "set", "player": 0, "field": "money", "value": -1}))
    assert caught.value.lines == ["money: must be at least 0, not -1"]
    with pytest.raises(EditRejected) as caught:
        s.apply(s.read_edit({"type": "set", "player": 0, "field": "money", "value": "3"}))
    assert caught.value.lines == ["value: must be a whole number"]
    with pytest.raises(EditRejected) as caught:
        s.apply(s.read_edit({"type": "set", "player": 7, "field": "money", "value": 3}))
    assert caught.value.fields == ["player"]
    with pytest.raises(EditRejected) as caught:
        s.apply(s.read_edit({"type": "teleport"}))
    assert caught.value.fields == ["type"]
    with pytest.raises(EditRejected) as caught:
        s.apply(s.read_edit({"type": "set", "player": 0, "field": "money", "value": 3, "extra": 1}))
    assert caught.value.lines == ["extra: is not a known field"]
    assert (s.state, s.events) == before


def test_finish_closes_the_game_and_undo_reopens_it() -> None:
    s = session()
    s.apply(s.read_edit({"type": "finish"}))
    assert s.finished and s.sheet().winners == ["Ann", "Bo"]
    with pytest.raises(EditRejected, match="finished"):
        s.apply(s.read_edit({"type": "set", "player": 0, "field": "money", "value": 3}))
    with pytest.raises(EditRejected, match="already finished"):
        s.apply(s.read_edit({"type": "finish"}))
    assert s.undo() and not s.finished
    s.apply(s.read_edit({"type": "set", "player": 0, "field": "money", "value": 9}))


def test_finish_is_refused_while_numbers_are_missing() -> None:
    s = session("small-city")
    s.apply(s.read_edit({"type": "keep_promise", "player": 1, "card": 4, "value": 6}))
    with pytest.raises(EditRejected) as caught:
        s.apply(s.read_edit({"type": "finish"}))
    assert caught.value.lines == ["promise 4: mark whether Bo fulfilled it or failed"]
    assert not s.finished


def test_app_roll_is_recorded_and_never_rerolled() -> None:
    s = session("feudum")
    event = s.apply(s.read_edit({"type": "roll", "source": "app"}))
    face = event["edit"]["face"]
    assert 1 <= face <= 6 and event["edit"]["source"] == "app"
    assert s.undo() and s.redo()
    assert s.events[-1]["edit"]["face"] == face
    reopened = TallySession(s.rules, s.setup, s.events)
    assert reopened.state.rolls == s.state.rolls
    # The same seed and log position draw the same face: undo cannot fish for a new one.
    s.undo()
    assert s.apply(s.read_edit({"type": "roll", "source": "app"}))["edit"]["face"] == face
    other_seed = session("feudum", seed=6)
    faces = {other_seed.apply(other_seed.read_edit({"type": "roll",
                                                    "source": "app"}))["edit"]["face"]
             for _ in range(8)}
    assert len(faces) > 1


def test_manual_roll_needs_its_face() -> None:
    s = session("feudum")
    with pytest.raises(EditRejected) as caught:
        s.apply(s.read_edit({"type": "roll", "source": "manual"}))
    assert caught.value.fields == ["face"]
    s.apply(s.read_edit({"type": "roll", "source": "manual", "face": 3}))
    assert s.state.rolls[-1].source == "manual" and s.state.rolls[-1].region == "forest"


def test_snapshot_restore_is_all_or_nothing() -> None:
    s = session()
    s.apply(s.read_edit({"type": "set", "player": 0, "field": "money", "value": 11}))
    snap = s.snapshot()
    s.undo()
    s.restore(snap)
    assert money(s) == [11, 8] and not s.can_redo


def test_setup_checks_roster_and_rules_match() -> None:
    with pytest.raises(EditRejected) as caught:
        checked_setup("small-city", ["Ann", " ann ", ""], 2, 4)
    assert caught.value.fields == ["players[1].name", "players[2].name"]
    with pytest.raises(EditRejected) as caught:
        checked_setup("small-city", ["Ann"], 2, 4)
    assert caught.value.fields == ["players"]
    assert checked_setup("villagers", [" Ann "], 1, 5).players == ("Ann",)
    with pytest.raises(ValueError):
        TallySession(rules_for("feudum"), TallySetup(game="villagers", players=("A",)))
    with pytest.raises(EditRejected):
        rules_for("chess")


def test_a_stored_edit_is_read_into_its_model_once_naming_the_field() -> None:
    s = session()
    assert s.read_edit({"type": "set", "player": 0, "field": "money", "value": 4}) == \
        SetField(player=0, field="money", value=4)
    assert s.read_edit({"type": "finish"}) == Finish()
    for raw, field in ((["set"], "(edit)"), ({"type": "decrees"}, "type"),
                       ({"type": "set", "player": "0", "field": "money", "value": 4},
                        "player")):
        with pytest.raises(EditRejected) as caught:
            s.read_edit(raw)
        assert caught.value.fields == [field]
    # a stored log is read the same way: its edits fold into the typed models' state
    s.apply(SetField(player=1, field="money", value=2))
    again = TallySession(s.rules, s.setup, s.events)
    assert money(again) == [8, 2] and again.events == s.events
    with pytest.raises(EditRejected) as caught:  # a damaged stored edit names its field
        TallySession(s.rules, s.setup, [{"at": "x", "edit": {"type": "set", "player": 0,
                                                             "field": "money"}}])
    assert caught.value.fields == ["value"]
