"""Explain how tied totals were split, as data a screen can put into any language.

The ranks themselves come from each game's scorer; this only says, for every group of
players with the same total, which tie-breaks told them apart and whether some are still
level (sharing a rank).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class TieKey:
    key: str  # "pollution", "money", "sulfur", "villagers"
    values: Sequence[int]  # one per player, input order
    higher_wins: bool


@dataclass(frozen=True)
class TieGroup:
    total: int
    players: list[int]  # indices, input order
    used: list[str]  # keys of the tie-breaks that separated someone, in order
    still_level: list[list[int]]  # groups left sharing a rank after every tie-break


def tie_groups(totals: Sequence[int | None], keys: Sequence[TieKey]) -> list[TieGroup]:
    groups: dict[int, list[int]] = {}
    for i, total in enumerate(totals):
        if total is not None:
            groups.setdefault(total, []).append(i)
    out = []
    for total in sorted(groups, reverse=True):
        members = groups[total]
        if len(members) < 2:
            continue
        parts = [members]
        used: list[str] = []
        for key in keys:
            split: list[list[int]] = []
            for part in parts:
                by_value: dict[int, list[int]] = {}
                for i in part:
                    by_value.setdefault(key.values[i], []).append(i)
                if len(by_value) > 1 and key.key not in used:
                    used.append(key.key)
                split.extend(by_value.values())
            parts = split
        out.append(TieGroup(total=total, players=members, used=used,
                            still_level=[p for p in parts if len(p) > 1]))
    return out
