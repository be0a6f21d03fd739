"""A round's end, step by step in the order the table does it (read side, no rules of its
own): the last turn's deaths, the mass (members bought out of the black bag, the bag's draw,
moves up the church track, the majority bonus) and then the new round (who starts, Karla's
board, filling the green bag, the draw onto each space) — or, after the final mass, final
scoring.

It is a fold of the log like the session's: the engine's notes of each event are grouped
into the steps. What the engine does without a note (a church move paid in grain, Karla's
board cleared, the bag filled) is worded here from the states before and after its event,
with note keys of its own (companion.village.notes.EN, so every language words them).

Each step has an id that stays the same for that step of that round (`end<round>-<kind>`,
`final-<kind>`): what the table's done marks are keyed by (companion.village.table_marks).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.core.json_types import JsonObject
from companion.village.components import ComponentData
from companion.village.engine import apply_event, start_state
from companion.village.session import parse_body
from companion.village.setup import VillageSetup
from companion.village.state import VillageState

# The order the table does it in.
STEP_ORDER = ("deaths", "buyout", "mass_draw", "church", "bonus", "start_player",
              "bag_fill", "bag_draw", "final_scoring")
DEATH_KEYS = frozenset({"to_chronicle", "to_graveyard", "removed_no_slot", "removed_final",
                        "nobody_dies", "game_end_chronicle", "game_end_graveyard",
                        "karla_no_member"})
BONUS_KEYS = frozenset({"no_bonus", "bonus_most", "bonus_rightmost", "bonus_still_tied",
                        "karla_majority"})
START_KEYS = frozenset({"new_start_player", "next_start_back", "next_start_spent"})
MASS_PHASES = frozenset({"mass_buyout", "mass_advance"})


@dataclass(frozen=True)
class Line:
    """One thing to do or know: an engine note (key + params, see notes.EN)."""

    key: str
    params: Mapping[str, Any]


@dataclass(frozen=True)
class Step:
    id: str  # stable for this step of this round: what a done mark names
    kind: str  # one of STEP_ORDER
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class RoundEnd:
    round: int  # the round that ended
    final: bool  # the final mass (then final scoring, no new round)
    steps: tuple[Step, ...]
    # The table still has to decide or enter something before the steps are all known
    # (buy-outs, church moves, a draw entered by hand).
    under_way: bool

    @property
    def scope(self) -> int:
        """The marks' scope (table_marks.scope) this round end belongs to: the round it
        starts."""
        return self.round + 1

    def step_ids(self) -> list[str]:
        return [s.id for s in self.steps]


@dataclass
class _Collector:
    round: int
    final: bool
    lines: dict[str, list[Line]] = field(default_factory=dict)
    complete: bool = False

    def add(self, kind: str, line: Line, *, replace: bool = False) -> None:
        if replace:
            self.lines[kind] = []
        self.lines.setdefault(kind, []).append(line)

    def result(self, state: VillageState) -> RoundEnd:
        prefix = "final" if self.final else f"end{self.round}"
        steps = tuple(Step(f"{prefix}-{kind}", kind, tuple(self.lines[kind]))
                      for kind in STEP_ORDER if self.lines.get(kind))
        under_way = not self.complete and (state.phase in MASS_PHASES or bool(state.pending))
        return RoundEnd(self.round, self.final, steps, under_way)


def _church_levels(state: VillageState) -> dict[str, int]:
    return {m.id: m.level for m in state.members.values() if m.place == "church"}


def last_round_end(setup: VillageSetup, comp: ComponentData,
                   events: Iterable[Mapping[str, Any]]) -> RoundEnd | None:
    """The newest round end in the log (under way or done), or None before the first."""
    state = start_state(setup, comp)
    since_turn_end: list[Line] = []  # deaths owed at the last end of a turn
    current: _Collector | None = None
    for event in events:
        body = parse_body(dict(event["body"]))
        kind = getattr(body, "type", "")
        draw = getattr(body, "draw", None)
        if kind == "end_turn":
            since_turn_end = []
        levels_before = _church_levels(state) if kind == "mass_advance" else {}
        round_before, karla_before = state.round, state.karla is not None
        apply_event(state, comp, body)
        if current is not None and not current.complete and draw == "mass":
            current.lines["mass_draw"] = []  # a redraw replaces the draw
        for note in state.note_data:
            key = str(note.get("key"))
            line = Line(key, dict(note.get("params", {})))
            if key in ("round_mass", "final_mass"):
                current = _Collector(state.round, key == "final_mass")
                if since_turn_end:
                    current.lines["deaths"] = list(since_turn_end)
                continue
            if current is None or current.complete:
                if key in DEATH_KEYS:
                    since_turn_end.append(line)
                continue
            if key in DEATH_KEYS:
                current.add("deaths", line)
            elif key in ("to_church", "monk_drawn"):
                current.add("mass_draw" if kind == "chance" else "buyout", line)
            elif key in BONUS_KEYS:
                current.add("bonus", line)
            elif key in START_KEYS:
                current.add("start_player", line)
            elif key == "supply_short":
                current.add("bag_fill", line)
            elif key == "final_scoring":
                current.add("final_scoring", line)
                current.complete = True
            elif key == "put_on_space" and draw == "bag":
                current.add("bag_draw", line)
        if current is None:
            continue
        if kind == "mass_advance":
            _church_moves(state, levels_before, current)
        if current.complete and kind == "chance" and draw == "bag" and state.round_turns == 0:
            # A redraw of the new round's draw (before its first take) replaces it.
            current.lines["bag_draw"] = [Line(str(n["key"]), dict(n.get("params", {})))
                                         for n in state.note_data if n.get("key") == "put_on_space"]
        if state.round > round_before and not current.final:
            _new_round(state, current, karla_before)
        if draw == "bag" and not current.final and current.lines.get("bag_draw"):
            current.complete = True
    if current is None:
        return None
    return current.result(state)


def _church_moves(state: VillageState, before: dict[str, int], current: _Collector) -> None:
    moved = [(mid, level, state.members[mid].level) for mid, level in sorted(before.items())
             if mid in state.members and state.members[mid].place == "church"
             and state.members[mid].level != level]
    lines = current.lines.setdefault("church", [])
    lines[:] = [line for line in lines if line.key != "church_none"]
    for mid, old, new in moved:
        member = state.members[mid]
        lines.append(Line("church_moved", {"player": state.players[member.owner].name,
                                           "gen": member.gen, "from_level": old,
                                           "level": new}))
    if not lines:
        lines.append(Line("church_none", {}))


def _new_round(state: VillageState, current: _Collector, karla: bool) -> None:
    """The event that began the new round: who starts, Karla's board, the bag's filling."""
    if not current.lines.get("church"):
        current.lines["church"] = [Line("church_none", {})]
    start = current.lines.setdefault("start_player", [])
    if not any(line.key == "new_start_player" for line in start):
        start.insert(0, Line("start_player_stays",
                             {"player": state.players[state.start_player].name}))
    if karla:
        start.append(Line("karla_board_reset", {}))
    bag = {c: n for c, n in state.bag.items() if n}
    if bag:
        current.lines.setdefault("bag_fill", []).insert(0, Line("bag_filled", {"cubes": bag}))


def opening(setup: VillageSetup, comp: ComponentData,
            events: Iterable[Mapping[str, Any]]) -> tuple[int, list[JsonObject]] | None:
    """Round 1's setup, what the table does before the first take (start player, seat
    compensation, the bag's draw): the log group that held the round's newest bag draw and
    that group's notes. None until the draw is made."""
    state = start_state(setup, comp)
    group: int | None = None
    notes: list[JsonObject] = []
    found: tuple[int, list[JsonObject]] | None = None
    for event in events:
        if state.round > 1 or state.round_turns > 0:
            break
        if int(event["group"]) != group:
            group, notes = int(event["group"]), []
        body = parse_body(dict(event["body"]))
        apply_event(state, comp, body)
        notes += [dict(n) for n in state.note_data]
        if getattr(body, "draw", None) == "bag" and state.round == 1:
            found = (group, list(notes))
    return found
