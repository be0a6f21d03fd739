"""Where each round and turn starts in a replay (companion.core.positions)."""

from __future__ import annotations

from dataclasses import dataclass

from companion.core.positions import marks, next_start, previous_start


@dataclass(frozen=True)
class Step:
    round: int
    turn: int


def steps(*pairs: tuple[int, int]) -> list[Step]:
    return [Step(r, t) for r, t in pairs]


def test_rounds_start_where_the_round_changes_and_turns_at_each_take() -> None:
    # round 1: two draws, turn 1 (take, end), turn 2 (take, action, end) -> round 2 ...
    game = steps((1, 0), (1, 0), (1, 1), (1, 1), (1, 2), (1, 2), (2, 0), (2, 0), (2, 1),
                 (2, 2), (2, 2))
    found = marks(game)
    assert found.rounds == (0, 6)
    assert found.turns == (2, 4, 8, 9)


def test_setup_steps_before_the_first_round_are_a_round_of_their_own() -> None:
    found = marks(steps((0, 0), (1, 0), (1, 1)))
    assert found.rounds == (0, 1)
    assert found.turns == (2,)


def test_no_steps_no_marks() -> None:
    found = marks([])
    assert (found.rounds, found.turns) == ((), ())
    assert found.next_turn(0) is None and found.previous_round(0) is None


def test_jumps_go_strictly_before_or_after() -> None:
    starts = (2, 4, 8)
    assert previous_start(starts, 0) is None
    assert previous_start(starts, 2) is None
    assert previous_start(starts, 3) == 2  # from the middle of a turn: its start
    assert previous_start(starts, 4) == 2
    assert previous_start(starts, 100) == 8
    assert next_start(starts, 0) == 2
    assert next_start(starts, 2) == 4
    assert next_start(starts, 5) == 8
    assert next_start(starts, 8) is None


def test_marks_answer_the_jumps() -> None:
    found = marks(steps((1, 0), (1, 1), (1, 2), (2, 0), (2, 1)))
    assert (found.previous_round(4), found.next_round(0), found.next_round(3)) == (3, 3, None)
    assert (found.previous_turn(4), found.next_turn(0), found.next_turn(4)) == (2, 1, None)
