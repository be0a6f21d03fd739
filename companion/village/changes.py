"""What an action changed, player by player: the engine's own comparison of the state
before and after it (issue 20). The app words it where the player is looking: the time
spent and where the marker now stands against the quill, the goods, grain and coins
gained or spent, the influence cubes, the members born, moved or dead, the prestige
points, customers served and cities visited.

`changes(before, after, comp, note_data)` is a pure function: the two states are only
read. `note_data` (the engine's notes of the steps between them) tells how often a time
marker passed the quill, which the two positions alone cannot (a marker that went once
round the track stands where it stood).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from companion.core.json_types import JsonObject
from companion.village.components import ComponentData
from companion.village.rules.time_track import TimeMarker, marker_at
from companion.village.state import Member, VillageState

MemberKind = Literal["born", "moved", "died", "removed"]
DEAD_PLACES = ("chronicle", "graveyard")
QUILL_NOTES = {"quill_passed": 1}  # key -> passes; "quill_passed_n" carries `times`


@dataclass(frozen=True)
class MemberChange:
    """One member who came, went or moved: `before` is None for a member just born."""

    member: str
    gen: int
    kind: MemberKind
    before: str | None
    after: str


@dataclass(frozen=True)
class PlayerChange:
    """What changed for one player. Counts are differences (negative: spent or lost);
    `marker` is where the time marker stands afterwards (None: a player without one)."""

    player: int
    time_spent: int = 0  # hourglasses moved forward (negative: taken back)
    marker: TimeMarker | None = None
    quill_passed: int = 0  # times the marker passed the quill
    grain: int = 0
    coins: int = 0
    prestige: int = 0
    goods: dict[str, int] = field(default_factory=dict)
    cubes: dict[str, int] = field(default_factory=dict)
    customers: list[int] = field(default_factory=list)  # printed points of tiles served
    cities: list[int] = field(default_factory=list)  # cities newly visited
    members: list[MemberChange] = field(default_factory=list)

    @property
    def time(self) -> int:
        """The marker's position after (0 = the first space right of the quill)."""
        return self.marker.position if self.marker is not None else 0

    @property
    def to_quill(self) -> int:
        """Spaces from the marker to the quill after."""
        return self.marker.to_quill if self.marker is not None else 0

    @property
    def empty(self) -> bool:
        return not (self.time_spent or self.quill_passed or self.grain or self.coins
                    or self.prestige or self.goods or self.cubes or self.customers
                    or self.cities or self.members)


def _diff(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    keys = list(before) + [k for k in after if k not in before]
    out = {k: after.get(k, 0) - before.get(k, 0) for k in keys}
    return {k: d for k, d in out.items() if d}


def quill_passes(note_data: Iterable[JsonObject], name: str) -> int:
    """How often `name`'s marker passed the quill, by the engine's notes."""
    passes = 0
    for note in note_data:
        params = note.get("params", {}) or {}
        if params.get("player") != name:
            continue
        key = note.get("key")
        if key in QUILL_NOTES:
            passes += QUILL_NOTES[str(key)]
        elif key == "quill_passed_n":
            passes += int(params.get("times", 0))
    return passes


def _member_change(old: Member | None, new: Member) -> MemberChange | None:
    if old is not None and old.loc == new.loc:
        return None
    if old is None:
        if new.place == "supply":  # a member set aside in the supply is nobody yet
            return None
        kind: MemberKind = "born"
    elif new.place in DEAD_PLACES and old.living:
        kind = "died"
    elif new.place == "removed" and old.living:
        kind = "removed"
    elif old.place == "supply" and new.living:
        kind = "born"
    else:
        kind = "moved"
    was = None if kind == "born" or old is None else old.loc
    return MemberChange(new.id, new.gen, kind, was, new.loc)


def changes(before: VillageState, after: VillageState, comp: ComponentData,
            note_data: Iterable[JsonObject] = ()) -> list[PlayerChange]:
    """Every player something changed for, the player whose turn it was first, then the
    others in seat order. Both states must be of the same game (the same seats)."""
    notes = list(note_data)
    length = comp.n("time_track_length")
    out: list[PlayerChange] = []
    seats = list(range(min(len(before.players), len(after.players))))
    first = before.current if 0 <= before.current < len(seats) else 0
    for i in [first, *[s for s in seats if s != first]]:
        old, new = before.players[i], after.players[i]
        time_spent = passes = 0
        if new.kind == "human":
            passes = quill_passes(notes, new.name)
            time_spent = new.time - old.time + passes * length
            dropped = old.deaths_pending - new.deaths_pending
            if not passes and dropped > 0 and new.time > old.time:
                time_spent -= dropped * length  # taken back over the quill
        members = []
        for member_id, member in after.members.items():
            if member.owner != i:
                continue
            moved = _member_change(before.members.get(member_id), member)
            if moved is not None:
                members.append(moved)
        change = PlayerChange(
            player=i, time_spent=time_spent,
            marker=marker_at(length, new.time) if new.kind == "human" else None,
            quill_passed=passes,
            grain=new.grain - old.grain, coins=new.coins - old.coins,
            prestige=new.prestige - old.prestige, goods=_diff(old.goods, new.goods),
            cubes=_diff(old.cubes, new.cubes),
            customers=_added(old.customers, new.customers),
            cities=[c for c in new.cities if c not in old.cities], members=members)
        if not change.empty:
            out.append(change)
    return out


def _added(before: list[int], after: list[int]) -> list[int]:
    """The tiles in `after` beyond those in `before` (tiles are only ever appended)."""
    if after[:len(before)] == before:
        return list(after[len(before):])
    return list((Counter(after) - Counter(before)).elements())
