"""The engine's replay of a recorded game (companion.village.replay): the state after each
step is the live session's state after the same events, stepping in any order; where
turns and rounds begin; each step's log line; a log the engine stops folding."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from companion.village.engine import apply_event, start_state
from companion.village.replay import GameReplay, actor_of
from companion.village.session import VillageSession, parse_body
from tests.golden.playthrough import HERE, digest, load_components, load_setup

CASES = ["solo_standard_v3", "three_players_v3"]


def golden(name: str) -> dict[str, Any]:
    return json.loads((HERE / f"{name}.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module", params=CASES)
def recorded(request: pytest.FixtureRequest) -> tuple[dict[str, Any], GameReplay]:
    doc = golden(request.param)
    return doc, GameReplay(load_setup(doc), load_components(doc), doc["events"], every=16)


def test_state_after_every_step_in_any_order_is_the_recorded_state(
        recorded: tuple[dict[str, Any], GameReplay]) -> None:
    doc, replay = recorded
    assert replay.count == len(doc["events"]) and not replay.stopped
    order = list(range(1, replay.count + 1))
    random.Random(5).shuffle(order)
    # random jumps, then forwards and backwards one step at a time
    for number in [*order, *range(1, replay.count + 1), *range(replay.count, 0, -1)]:
        assert digest(replay.state_after(number).model_dump_json()) == \
            doc["digests"][number - 1], number


def test_state_after_step_n_equals_the_live_sessions_state(
        recorded: tuple[dict[str, Any], GameReplay]) -> None:
    doc, replay = recorded
    setup, comp = load_setup(doc), load_components(doc)
    assert replay.state_after(0).model_dump_json() == \
        start_state(setup, comp).model_dump_json()
    for number in (1, 15, 16, 17, 100, replay.count // 2, replay.count):
        live = VillageSession(setup, comp, doc["events"][:number])
        assert replay.state_after(number).model_dump_json() == live.state.model_dump_json()
        assert replay.action_notes(number) == live.last_note_data  # Karla's board reads it
    assert json.loads(replay.state_after(replay.count).model_dump_json()) == doc["final"]


def test_asking_does_not_change_the_kept_states(
        recorded: tuple[dict[str, Any], GameReplay]) -> None:
    doc, replay = recorded
    for number in (16, 17, 18, 16, 32, 31, 17):
        replay.state_after(number)
    assert digest(replay.state_after(16).model_dump_json()) == doc["digests"][15]
    assert digest(replay.state_after(0).model_dump_json()) == digest(start_state(
        load_setup(doc), load_components(doc)).model_dump_json())
    with pytest.raises(IndexError):
        replay.state_after(replay.count + 1)


def test_turn_and_round_starts(recorded: tuple[dict[str, Any], GameReplay]) -> None:
    doc, replay = recorded
    setup, comp = load_setup(doc), load_components(doc)
    # worked out here with a fold of our own: a round starts where the round changes; a
    # turn where a cube, the well or a free action is taken (round_turns goes up)
    state = start_state(setup, comp)
    rounds, turns, before = [], [], None
    for number, event in enumerate(doc["events"], start=1):
        apply_event(state, comp, parse_body(event["body"]))
        here = (state.round, state.round_turns)
        if before is None or here[0] != before[0]:
            rounds.append(number)
        if here[1] >= 1 and here != before:
            turns.append(number)
        before = here
    assert replay.round_starts() == tuple(rounds)
    assert replay.turn_starts() == tuple(turns)
    takes = [n for n, e in enumerate(doc["events"], start=1)
             if e["body"]["type"] in ("take_cube", "well", "free_action")]
    assert set(takes) <= set(turns)
    last_round = max(s.round for s in replay.steps)
    assert [replay.step(n).round for n in replay.round_starts()][-1] == last_round
    # the jumps: from the middle of a turn back to its start, then to the one before
    second = turns[1]
    assert replay.next_turn(1) == turns[0]
    assert replay.previous_turn(second + 1) == second
    assert replay.previous_turn(second) == turns[0]
    assert replay.next_round(1) == rounds[1]
    assert replay.previous_round(rounds[1]) == rounds[0]
    assert replay.next_round(replay.count) is None
    assert replay.previous_turn(1) is None


def test_log_line_of_a_step_names_its_event_and_actor(
        recorded: tuple[dict[str, Any], GameReplay]) -> None:
    doc, replay = recorded
    setup, comp = load_setup(doc), load_components(doc)
    state = start_state(setup, comp)
    for number, event in enumerate(doc["events"], start=1):
        entry = replay.entry(number)
        assert (entry.seq, entry.group, entry.body) == (event["seq"], event["group"],
                                                        event["body"])
        assert entry.actor == actor_of(state, event["body"])
        apply_event(state, comp, parse_body(event["body"]))
    assert [e.body for e in GameReplay.log_entries(setup, comp, doc["events"])] == \
        [e["body"] for e in doc["events"]]


def test_a_log_the_engine_stops_folding_is_replayed_up_to_there() -> None:
    doc = golden("solo_standard_v3")
    events = [*doc["events"][:40], {"seq": 40, "group": 999, "at": "",
                                    "body": {"type": "take_cube", "space": "nowhere",
                                             "colour": "green"}},
              *doc["events"][40:45]]
    replay = GameReplay(load_setup(doc), load_components(doc), events)
    assert replay.count == 40 and replay.stopped
    assert len(replay.entries) == len(events)
    assert all(e.actor is None for e in replay.entries[41:])
    assert digest(replay.state_after(40).model_dump_json()) == doc["digests"][39]


def test_stepping_folds_a_few_events_never_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tap on a long game folds at most `every - 1` events from a kept snapshot, and one
    event when stepping on by one: never the game from its start."""
    import companion.village.replay as module

    doc = golden("three_players_v3")
    replay = GameReplay(load_setup(doc), load_components(doc), doc["events"], every=16)
    folded: list[int] = []
    real = module.apply_event

    def counted(*args: Any) -> list[str]:
        folded.append(1)
        return real(*args)

    monkeypatch.setattr(module, "apply_event", counted)

    def cost(number: int) -> int:
        folded.clear()
        replay.state_after(number)
        return len(folded)

    assert cost(replay.count) <= 15  # the last step: from the snapshot before it
    assert cost(replay.count - 1) <= 15  # one back
    assert cost(500) <= 15 and cost(501) == 1 and cost(502) == 1  # on by one
    assert cost(502) == 0  # asked again
    assert cost(480) == 0  # a kept snapshot
    assert max(cost(n) for n in random.Random(3).sample(range(1, replay.count), 60)) <= 15
