"""One tie-break for every game: competition ranking by total, then by ordered tie-break
keys, returned as data (ranks, winners, and per tied group what split it).

Small City, Feudum, Villagers and Village all rank by a total and then by one or more
tie-break values (some "most wins", some "fewest wins"); players still level after every
tie-break share the rank.  `break_ties` does that once, on top of
`contract.competition_ranks`; the English per-player notes of the score sheet and the
app's translated "tie-break in words" are both read from its groups.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.scoring.contract import competition_ranks


@dataclass(frozen=True)
class TieKey:
    """One tie-break: `key` names the criterion ("pollution", "money", "living members"),
    `values` holds one value per player in input order, `label` reads in a sentence
    ("lowest pollution"; the key itself when not given)."""

    key: str
    values: Sequence[int]
    higher_wins: bool
    label: str = ""

    def oriented(self, i: int) -> int:
        # Orient so that greater is always better, as competition_ranks expects.
        return self.values[i] if self.higher_wins else -self.values[i]

    @property
    def words(self) -> str:
        return self.label or self.key


@dataclass(frozen=True)
class TieGroup:
    total: int
    players: list[int]  # indices, input order
    used: list[str]  # keys of the tie-breaks that separated someone, in order
    still_level: list[list[int]]  # groups left sharing a rank after every tie-break
    # per player in the group: the keys that split their part, each with the part (that
    # player first), and the rivals still level with them after every key
    paths: dict[int, list[tuple[TieKey, list[int]]]]
    rivals: dict[int, list[int]]


@dataclass(frozen=True)
class TieResult:
    ranks: list[int | None]
    winners: list[str]
    groups: list[TieGroup]
    notes: list[str | None]  # English, one per player; None when not tied


def break_ties(names: Sequence[str], totals: Sequence[int | None],
               keys: Sequence[TieKey] = ()) -> TieResult:
    """Rank by total, then by each key in order; a total of None means "out of the
    ranking" (rank None, no note).  Equal keys share a rank (1, 1, 3)."""
    for key in keys:
        if len(key.values) != len(totals):
            raise ValueError(f"tie-break {key.key!r} needs one value per player")
    if len(names) != len(totals):
        raise ValueError("need one name per total")
    ranks = competition_ranks([
        None if total is None else (total, *(key.oriented(i) for key in keys))
        for i, total in enumerate(totals)])
    groups = _groups(totals, keys)
    notes: list[str | None] = [None] * len(totals)
    for group in groups:
        for i in group.players:
            notes[i] = _note(names, i, group, keys, ranks[i])
    winners = [names[i] for i, rank in enumerate(ranks) if rank == 1]
    return TieResult(ranks=ranks, winners=winners, groups=groups, notes=notes)


def _groups(totals: Sequence[int | None], keys: Sequence[TieKey]) -> list[TieGroup]:
    by_total: dict[int, list[int]] = {}
    for i, total in enumerate(totals):
        if total is not None:
            by_total.setdefault(total, []).append(i)
    out = []
    for total in sorted(by_total, reverse=True):
        members = by_total[total]
        if len(members) < 2:
            continue
        parts = [members]
        used: list[str] = []
        paths: dict[int, list[tuple[TieKey, list[int]]]] = {i: [] for i in members}
        for key in keys:
            split: list[list[int]] = []
            for part in parts:
                by_value: dict[int, list[int]] = {}
                for i in part:
                    by_value.setdefault(key.values[i], []).append(i)
                if len(by_value) > 1:
                    if key.key not in used:
                        used.append(key.key)
                    for i in part:
                        paths[i].append((key, [i, *(j for j in part if j != i)]))
                split.extend(by_value.values())
            parts = split
        rivals = {i: [j for j in part if j != i] for part in parts for i in part}
        out.append(TieGroup(total=total, players=members, used=used,
                            still_level=[p for p in parts if len(p) > 1],
                            paths=paths, rivals=rivals))
    return out


def _note(names: Sequence[str], i: int, group: TieGroup, keys: Sequence[TieKey],
          rank: int | None) -> str:
    head = (f"Tied on {group.total} with "
            f"{', '.join(names[j] for j in group.players if j != i)}")
    used = [f"{key.words} ({', '.join(f'{names[j]} {key.values[j]}' for j in part)})"
            for key, part in group.paths[i]]
    if not group.rivals[i]:
        return f"{head}; {', then '.join(used)} decided."
    if not keys:
        return f"{head}; there is no tie-break, so rank {rank} is shared."
    level_on = " and ".join(f"{key.key} {key.values[i]}" for key in keys)
    return (f"{head}; still level with {', '.join(names[j] for j in group.rivals[i])} "
            f"on {level_on}, so rank {rank} is shared.")


def tie_groups(totals: Sequence[int | None], keys: Sequence[TieKey]) -> list[TieGroup]:
    """The tied groups of `totals` and what split them (players named by index), for the
    screens that say a tie-break in words."""
    return break_ties([str(i) for i in range(len(totals))], totals, keys).groups
