"""Where each round and each turn starts in a replayed game, for the replay's jumps.

A replay is a list of steps, each the game just after one stored event, carrying the
round and the turn within that round (Village: `VillageState.round` and `round_turns`,
the cubes taken or wells used so far this round; 0 before the round's first take). A
round starts at the step whose round differs from the step before it; a turn starts at
the step that takes its cube (or the well, or the free action of the final turns): the
step whose (round, turn) differs from the one before it with a turn of at least 1. Steps
before a round's first take (its draws, the mass) belong to the round, not to a turn.

Pure: no engine, no store, no UI. The jumps answer a step index or None (no such start
before / after it)."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol


class Positioned(Protocol):
    @property
    def round(self) -> int: ...

    @property
    def turn(self) -> int: ...


@dataclass(frozen=True)
class Marks:
    """Step indices (0-based, ascending) at which a round / a turn starts."""

    rounds: tuple[int, ...] = ()
    turns: tuple[int, ...] = ()

    def previous_round(self, index: int) -> int | None:
        return previous_start(self.rounds, index)

    def next_round(self, index: int) -> int | None:
        return next_start(self.rounds, index)

    def previous_turn(self, index: int) -> int | None:
        return previous_start(self.turns, index)

    def next_turn(self, index: int) -> int | None:
        return next_start(self.turns, index)


def marks(steps: Sequence[Positioned]) -> Marks:
    rounds: list[int] = []
    turns: list[int] = []
    before: tuple[int, int] | None = None
    for index, step in enumerate(steps):
        here = (step.round, step.turn)
        if before is None or here[0] != before[0]:
            rounds.append(index)
        if here[1] >= 1 and here != before:
            turns.append(index)
        before = here
    return Marks(rounds=tuple(rounds), turns=tuple(turns))


def previous_start(starts: Sequence[int], index: int) -> int | None:
    """The last start strictly before `index` (from the middle of a turn: its start)."""
    at = bisect_left(starts, index)
    return starts[at - 1] if at > 0 else None


def next_start(starts: Sequence[int], index: int) -> int | None:
    """The first start strictly after `index`."""
    at = bisect_right(starts, index)
    return starts[at] if at < len(starts) else None
