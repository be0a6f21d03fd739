"""The round end read from the log (companion.village.round_end) and the table's done marks
saved with the game (companion.village.table_marks, VillageService.set_table_marks)."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Literal

import pytest

from companion.store.memory import MemoryStore
from companion.store.tinydb_store import TinyDBStore
from companion.village import table_marks
from companion.village.autoplay import candidate_commands, play_step
from companion.village.round_end import DEATH_KEYS, STEP_ORDER, last_round_end, opening
from companion.village.rules.errors import RuleError
from companion.village.service import VillageService
from companion.village.session import VillageSession, validate_command
from companion.village.setup import PlayerSetup, VillageSetup

Edition = Literal["big-box", "2011"]


def _setup(seed: int, *, solo: bool = False, edition: Edition = "big-box",
           players: int = 3) -> VillageSetup:
    people = [("Ann", "red"), ("Bo", "blue"), ("Cy", "white")][:1 if solo else players]
    return VillageSetup(players=[PlayerSetup(name=n, colour=c) for n, c in people],
                        solo=solo, karla_colour="purple" if solo else None, start_player=0,
                        seed=seed, edition=edition)


def _play_until(session: VillageSession, rng: random.Random,
                done: Callable[[VillageSession], bool], limit: int = 3000) -> None:
    for _ in range(limit):
        if done(session):
            return
        assert play_step(session, rng) is not None
    raise AssertionError("the game never got there")


def _next_round(session: VillageSession) -> Callable[[VillageSession], bool]:
    start = session.state.round
    return lambda s: s.state.round > start or s.state.phase in ("scoring", "finished")


def _order_ok(kinds: list[str]) -> bool:
    return kinds == [k for k in STEP_ORDER if k in kinds]


def test_no_round_end_before_the_first_and_round_one_setup_steps() -> None:
    session = VillageSession.new(_setup(4))
    assert last_round_end(session.setup, session.comp, session.events) is None
    group, notes = opening(session.setup, session.comp, session.events) or (None, [])
    keys = [n["key"] for n in notes]
    assert group == 0 and keys.count("put_on_space") == 7 and "compensation_drawn" in keys


def test_multiplayer_round_end_with_a_death_and_a_church_move() -> None:
    """A 3-player game whose round ends right after a death, with a move up the church
    track in the mass: every step in the table's order, worded from what the fold did."""
    for seed in range(12, 40):
        session = VillageSession.new(_setup(seed))
        rng = random.Random(seed)
        while session.state.round < 5 and session.state.phase == "turns":
            before = session.state.clone()
            _play_until(session, rng, _next_round(session))
            end = last_round_end(session.setup, session.comp, session.events)
            assert end is not None and end.round == before.round and not end.final
            kinds = [s.kind for s in end.steps]
            if "deaths" not in kinds or not any(line.key == "church_moved"
                                                for s in end.steps for line in s.lines):
                continue
            assert _order_ok(kinds), kinds
            assert kinds[0] == "deaths" and kinds[-3:] == ["start_player", "bag_fill",
                                                           "bag_draw"]
            assert [s.id for s in end.steps] == [f"end{end.round}-{k}" for k in kinds]
            steps = {s.kind: s for s in end.steps}
            assert all(line.key in DEATH_KEYS for line in steps["deaths"].lines)
            for line in steps["church"].lines:
                if line.key == "church_moved":
                    assert line.params["level"] > line.params["from_level"]
            # The new round's draw is what lies on the spaces now (nothing taken yet).
            drawn = {line.params["space"]: line.params["cubes"]
                     for line in steps["bag_draw"].lines}
            state = session.state
            assert drawn == {s: {c: cubes.count(c) for c in sorted(set(cubes))}
                             for s, cubes in state.spaces.items() if cubes}
            start = steps["start_player"].lines[0]
            assert start.params["player"] == state.players[state.start_player].name
            assert steps["bonus"].lines and not end.under_way
            return
    raise AssertionError("no round end with a death and a church move in seeds 12-39")


def test_solo_round_end_clears_karlas_board() -> None:
    session = VillageSession.new(_setup(5, solo=True), karla_policy="auto")
    rng = random.Random(5)
    _play_until(session, rng, lambda s: s.state.round >= 2)
    end = last_round_end(session.setup, session.comp, session.events)
    assert end is not None and end.round == 1
    kinds = [s.kind for s in end.steps]
    assert _order_ok(kinds) and "bag_draw" in kinds
    start = next(s for s in end.steps if s.kind == "start_player")
    assert [line.key for line in start.lines][-1] == "karla_board_reset"
    assert start.lines[0].params == {"player": "Ann"}  # solo: the player always starts


def test_2011_game_round_end_and_final_mass() -> None:
    session = VillageSession.new(_setup(6, edition="2011", players=2))
    rng = random.Random(6)
    _play_until(session, rng, lambda s: s.state.round >= 2)
    end = last_round_end(session.setup, session.comp, session.events)
    assert end is not None and end.round == 1 and _order_ok([s.kind for s in end.steps])
    _play_until(session, rng, lambda s: s.state.phase in ("scoring", "finished"), 8000)
    final = last_round_end(session.setup, session.comp, session.events)
    assert final is not None and final.final
    kinds = [s.kind for s in final.steps]
    assert kinds[-1] == "final_scoring" and "bag_draw" not in kinds
    assert all(s.id.startswith("final-") for s in final.steps)


def test_a_mass_waiting_for_buyouts_is_under_way() -> None:
    for seed in range(1, 30):
        session = VillageSession.new(_setup(seed))
        rng = random.Random(seed)
        _play_until(session, rng, lambda s: s.state.phase != "turns" or s.state.round > 1)
        if session.state.phase == "mass_buyout":
            end = last_round_end(session.setup, session.comp, session.events)
            assert end is not None and end.under_way
            assert "bag_draw" not in [s.kind for s in end.steps]
            assert table_marks.scope(session.state) == end.scope == 2
            return
    raise AssertionError("no seed 1-29 stopped at a buy-out: the test lost its subject")


# ---- done marks saved with the game -------------------------------------------------------------
def _service_play(svc: VillageService, sid: str, session: VillageSession, rng: random.Random,
                  done: Callable[[VillageSession], bool]) -> None:
    for _ in range(3000):
        if done(session):
            return
        for cmd in candidate_commands(session, rng):
            try:
                svc.execute(sid, session, validate_command(cmd))
            except RuleError:
                continue
            break
    assert done(session)


@pytest.mark.parametrize("kind", ["memory", "tinydb"])
def test_marks_round_trip_survive_undo_and_clear_at_the_next_round(kind: str,
                                                                   tmp_path: Path) -> None:
    store = MemoryStore() if kind == "memory" else TinyDBStore(tmp_path)
    svc = VillageService(store)
    sid, session = svc.create(_setup(3))
    svc.set_table_marks(sid, session, "draw1-harvest")
    svc.set_table_marks(sid, session, "g0-0-start_player")
    reopened = VillageService(TinyDBStore(tmp_path) if kind == "tinydb" else store).open(sid)
    assert table_marks.done(reopened.table_marks, reopened.state) == {"draw1-harvest",
                                                                      "g0-0-start_player"}
    svc.set_table_marks(sid, session, "g0-0-start_player")  # unticked again
    assert table_marks.done(session.table_marks, session.state) == {"draw1-harvest"}
    # Undo leaves the marks alone (no event), and neither the log nor the state see them.
    rng = random.Random(3)
    _service_play(svc, sid, session, rng, lambda s: s.state.stage == "act")
    events = len(store.load(sid).events)
    svc.set_table_marks(sid, session, "draw1-family")
    assert len(store.load(sid).events) == events and store.load(sid).redo == []
    assert svc.undo(sid, session)
    again = VillageService(store).open(sid)
    assert table_marks.done(again.table_marks, again.state) == {"draw1-harvest",
                                                                "draw1-family"}
    assert "table_marks" not in again.state.model_dump_json()
    # The round ends: the marks of round 1 are gone (the mass already belongs to round 2).
    _service_play(svc, sid, session, rng, lambda s: table_marks.scope(s.state) == 2)
    assert table_marks.done(session.table_marks, session.state) == frozenset()
    svc.set_table_marks(sid, session, "end1-bonus")
    _service_play(svc, sid, session, rng, lambda s: s.state.round == 2)
    assert table_marks.done(session.table_marks, session.state) == {"end1-bonus"}
    stored = store.load(sid).header["table_marks"]
    assert stored == {"scope": 2, "done": ["end1-bonus"]}
    _service_play(svc, sid, session, rng, lambda s: table_marks.scope(s.state) == 3)
    assert table_marks.done(session.table_marks, session.state) == frozenset()


def test_a_bad_mark_is_refused_and_nothing_is_written() -> None:
    store = MemoryStore()
    svc = VillageService(store)
    sid, session = svc.create(_setup(3))
    version = store.load(sid).version
    with pytest.raises(ValueError, match="instruction"):
        svc.set_table_marks(sid, session, "")
    assert store.load(sid).version == version and session.table_marks == {}
    assert table_marks.done({"scope": "x", "done": 3}, session.state) == frozenset()
