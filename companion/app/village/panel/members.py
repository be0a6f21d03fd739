"""Family members grouped the way players see them: by place, then by generation.

Two members of the same generation in the same place are interchangeable at the table, so
the forms offer a group ("Farmyard · gen 1 ×3") and send the first member id of it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.app.village.table.words import loc_text
from companion.village.state import Member

if TYPE_CHECKING:
    from companion.app.context import AppContext

# Display order of places on the player panel.
PLACE_ORDER = ("farmyard", "workshop", "council", "church", "travel", "bag", "chronicle",
               "graveyard", "supply", "removed", "karla")

@dataclass(frozen=True)
class MemberGroup:
    loc: str
    gen: int
    ids: tuple[str, ...]

    @property
    def key(self) -> str:
        return f"{self.loc}|{self.gen}"

    @property
    def first(self) -> str:
        return self.ids[0]


def _loc_order(loc: str) -> tuple[int, str]:
    place, _, rest = loc.partition(":")
    rank = PLACE_ORDER.index(place) if place in PLACE_ORDER else len(PLACE_ORDER)
    return rank, rest.zfill(3)


def group_members(members: Iterable[Member]) -> list[MemberGroup]:
    """Groups in display order: place, then level/city/section, then generation."""
    by_key: dict[tuple[str, int], list[str]] = {}
    for m in members:
        by_key.setdefault((m.loc, m.gen), []).append(m.id)
    keys = sorted(by_key, key=lambda k: (_loc_order(k[0]), k[1]))
    return [MemberGroup(loc, gen, tuple(sorted(by_key[(loc, gen)]))) for loc, gen in keys]


def groups_by_loc(groups: Iterable[MemberGroup]) -> dict[str, list[MemberGroup]]:
    out: dict[str, list[MemberGroup]] = {}
    for g in groups:
        out.setdefault(g.loc, []).append(g)
    return out


def place_label(ctx: AppContext, loc: str) -> str:
    """"Farmyard", "Council level 2", "Chronicle: Farm" … (the table's own words)."""
    return loc_text(ctx, loc)


def gens_text(ctx: AppContext, groups: Iterable[MemberGroup]) -> str:
    """"gen 1 ×2, gen 3" for the groups of one place."""
    parts = []
    for g in groups:
        label = ctx.t("panel.member.gen", gen=g.gen)
        parts.append(label if len(g.ids) == 1 else ctx.t("panel.member.times", what=label,
                                                          count=len(g.ids)))
    return ", ".join(parts)


def group_label(ctx: AppContext, group: MemberGroup, *, with_place: bool = True) -> str:
    text = gens_text(ctx, [group])
    return f"{place_label(ctx, group.loc)} · {text}" if with_place else text
