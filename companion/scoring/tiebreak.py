"""Competition ranking with ordered tie-breaks, plus a readable note per tied player.

Small City, Feudum and Villagers all rank by a total and then by one or two tie-break
values (some "most wins", some "fewest wins"); players still level after every tie-break
share the rank.  This module does that once, on top of `contract.competition_ranks`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.scoring.contract import competition_ranks


@dataclass(frozen=True)
class TieBreak:
    """One tie-break: `label` reads in a sentence ("lowest pollution"), `noun` names the
    value ("pollution"), `values` holds one value per player in input order."""

    label: str
    noun: str
    values: Sequence[int]
    higher_wins: bool

    def key(self, i: int) -> int:
        # Orient so that greater is always better, as competition_ranks expects.
        return self.values[i] if self.higher_wins else -self.values[i]


@dataclass(frozen=True)
class Ranking:
    ranks: list[int | None]
    notes: list[str | None]


def _names(names: Sequence[str], idx: Sequence[int]) -> str:
    return ", ".join(names[j] for j in idx)


def rank_with_tiebreaks(
    names: Sequence[str],
    totals: Sequence[int | None],
    tiebreaks: Sequence[TieBreak] = (),
) -> Ranking:
    """Rank by total, then by each tie-break in order; a total of None means "out of the
    ranking" (rank None, no note).  Equal keys share a rank (1, 1, 3)."""
    for tb in tiebreaks:
        if len(tb.values) != len(totals):
            raise ValueError(f"tie-break {tb.noun!r} needs one value per player")
    if len(names) != len(totals):
        raise ValueError("need one name per total")

    keys: list[tuple[int, ...] | None] = []
    for i, total in enumerate(totals):
        keys.append(None if total is None else (total, *(tb.key(i) for tb in tiebreaks)))
    ranks = competition_ranks(keys)

    notes: list[str | None] = []
    for i, total in enumerate(totals):
        group = [j for j, t in enumerate(totals) if j != i and t is not None and t == total]
        if total is None or not group:
            notes.append(None)
            continue
        notes.append(_note(names, i, total, group, tiebreaks, ranks[i]))
    return Ranking(ranks=ranks, notes=notes)


def _note(
    names: Sequence[str],
    i: int,
    total: int,
    group: list[int],
    tiebreaks: Sequence[TieBreak],
    rank: int | None,
) -> str:
    head = f"Tied on {total} with {_names(names, group)}"
    rivals = group
    used: list[str] = []
    for tb in tiebreaks:
        contenders = [i, *rivals]
        if any(tb.values[j] != tb.values[i] for j in rivals):
            shown = ", ".join(f"{names[j]} {tb.values[j]}" for j in contenders)
            used.append(f"{tb.label} ({shown})")
        rivals = [j for j in rivals if tb.values[j] == tb.values[i]]
        if not rivals:
            return f"{head}; {', then '.join(used)} decided."
    if not tiebreaks:
        return f"{head}; there is no tie-break, so rank {rank} is shared."
    level_on = " and ".join(f"{tb.noun} {tb.values[i]}" for tb in tiebreaks)
    return (f"{head}; still level with {_names(names, rivals)} on {level_on}, "
            f"so rank {rank} is shared.")
