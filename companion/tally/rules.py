"""What a game plugs into a tally session: its state model, its edits and its reducer.

Each game's module (companion/<game>/tally.py) subclasses `TallyRules`. The reducer is
pure: `apply` returns a new state and never touches its input, and refuses a bad edit
with EditRejected naming the field. Two edits every game shares live here: setting a
player's number field and nudging it by a delta, checked against the game's FieldSpecs;
a game applies only its own edits (`apply_edit`, on the reducer's copy).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, Generic, Literal, NoReturn, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from companion.core.json_types import JsonObject
from companion.core.validation import error_lines
from companion.scoring.contract import ScoreSheet
from companion.scoring.tiebreak import TieKey
from companion.tally.errors import EditRejected, problems_from_lines, reject, validate_model
from companion.tally.setup import TallySetup


class TallyState(BaseModel):
    """Every game's tally state keeps one row per player (its number fields live there)."""

    players: Sequence[BaseModel]


S = TypeVar("S", bound=TallyState)
RngFactory = Callable[[str], random.Random]


class Edit(BaseModel):
    """Base of every edit: strict (no `"3"` for 3), unknown fields refused, immutable."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


E = TypeVar("E", bound=Edit)


def built(make: E | Callable[[], E]) -> E:
    """The edit a screen built: pydantic's refusal of a value it was given (a field the
    user typed) becomes the same named-field EditRejected a stored edit's gets."""
    if isinstance(make, Edit):
        return make
    try:
        return make()
    except ValidationError as exc:
        raise EditRejected(problems_from_lines(error_lines(exc))) from exc


def edit_table(*models: type[Edit]) -> dict[str, type[Edit]]:
    """A game's `edits`: each edit model by its "type" tag."""
    return {m.model_fields["type"].default: m for m in models}


def unknown_edit(edit: Edit) -> NoReturn:
    """For the end of a game's `apply_edit` (parse() only yields the edits it lists)."""
    reject("type", f"unknown edit {edit!r}", key="tally.unknown_edit",
           params={"edit": repr(edit)})


class SetField(Edit):
    type: Literal["set"] = "set"
    player: int
    field: str
    value: int


class AdjustField(Edit):
    type: Literal["adjust"] = "adjust"
    player: int
    field: str
    delta: int


@dataclass(frozen=True)
class FieldSpec:
    """A whole-number field of a player's row and the range the rules allow."""

    name: str
    minimum: int | None = 0  # None: no lower bound (Feudum's VP can go below 0)
    maximum: int | None = None
    why_max: str = ""  # reads after "at most N": "(the wine cask holds 3 sulfur)"
    max_key: str = ""  # the refusal key saying why_max ("feudum.at_most_sulfur")


def check_player(index: int, players: Sequence[object], field: str = "player") -> None:
    if not 0 <= index < len(players):
        reject(field, f"must be a player number 0 to {len(players) - 1}, not {index}",
               key="tally.player_number_range",
               params={"maximum": len(players) - 1, "index": index})


def check_value(spec: FieldSpec, value: int, field: str | None = None) -> None:
    name = field or spec.name
    if spec.minimum is not None and value < spec.minimum:
        reject(name, f"must be at least {spec.minimum}, not {value}",
               key="tally.at_least", params={"minimum": spec.minimum, "value": value})
    if spec.maximum is not None and value > spec.maximum:
        why = f" {spec.why_max}" if spec.why_max else ""
        reject(name, f"must be at most {spec.maximum}{why}, not {value}",
               key=spec.max_key or "tally.at_most",
               params={"maximum": spec.maximum, "value": value})


def check_not_negative(row: BaseModel, names: Iterable[str], where: str) -> None:
    """Counts typed in for a row of a table-wide edit (a market, a dawn, a pollution
    measure): each at least 0, named as `where`.<name> (e.g. "players[1].gold_icons")."""
    for name in names:
        value = int(getattr(row, name))
        if value < 0:
            reject(f"{where}.{name}", f"must be at least 0, not {value}",
                   key="tally.not_negative", params={"value": value})


class PlayerRow(Protocol):
    """A row of a table-wide edit: whose it is."""

    @property
    def player(self) -> int: ...


def check_one_row_each(rows: Sequence[PlayerRow], players: Sequence[object]) -> None:
    """A table-wide edit gives exactly one row (with its `player`) for each player."""
    if sorted(r.player for r in rows) != list(range(len(players))):
        reject("players", "give one row for each player", key="tally.one_row_per_player")


def apply_field_edit(players: Sequence[BaseModel], edit: SetField | AdjustField,
                     specs: Mapping[str, FieldSpec]) -> None:
    """Set or nudge one number field of one player (in place, on the reducer's copy)."""
    check_player(edit.player, players)
    spec = specs.get(edit.field)
    if spec is None:
        reject("field", f"must be one of {', '.join(specs)}, not {edit.field!r}",
               key="tally.not_one_of",
               params={"options": ", ".join(specs), "value": edit.field})
    row = players[edit.player]
    value = edit.value if isinstance(edit, SetField) else int(getattr(row, spec.name)) + edit.delta
    check_value(spec, value)
    setattr(row, spec.name, value)


class TallyRules(ABC, Generic[S]):
    game: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    # "type" value -> edit model (edit_table); the session parses raw edits through it.
    edits: ClassVar[Mapping[str, type[Edit]]]
    # The number fields of a player's row that SetField/AdjustField may change.
    fields: ClassVar[Mapping[str, FieldSpec]]

    @abstractmethod
    def start(self, setup: TallySetup) -> S:
        """The state before any edit."""

    def own(self, edit: Edit) -> Edit:
        """`edit` if it is one of the game's edits (a screen's model); else refused,
        naming the type."""
        model = self.edits.get(str(getattr(edit, "type", "")))
        if model is None or type(edit) is not model:
            reject("type", f"must be one of {', '.join(self.edits)}, not {edit!r}",
                   key="tally.not_one_of",
                   params={"options": ", ".join(self.edits), "value": repr(edit)})
        return edit

    def parse(self, raw: Mapping[str, object]) -> Edit:
        """A stored edit (a dict from a log) validated into the game's model, once."""
        kind = raw.get("type")
        if not isinstance(kind, str) or kind not in self.edits:
            reject("type", f"must be one of {', '.join(self.edits)}, not {kind!r}",
                   key="tally.not_one_of",
                   params={"options": ", ".join(self.edits), "value": kind})
        return validate_model(self.edits[kind], raw)

    def complete(self, state: S, edit: Edit, rng: RngFactory) -> Edit:
        """Fill in what the app draws for a chance edit (only when it has no outcome yet;
        a replayed edit already carries its recorded outcome)."""
        return edit

    def apply(self, state: S, edit: Edit) -> S:
        """A new state with the edit applied, or EditRejected naming the field."""
        work = state.model_copy(deep=True)  # pure: the edit changes a copy only
        if isinstance(edit, SetField | AdjustField):
            apply_field_edit(work.players, edit, self.fields)
            self.check_row(work, edit.player)
        else:
            self.apply_edit(work, edit)
        return work

    def check_row(self, work: S, player: int) -> None:
        """After a number field of `player`'s row changed: what the fields must obey
        together (Feudum: the ruled locations fit on the map)."""

    @abstractmethod
    def apply_edit(self, work: S, edit: Edit) -> None:
        """Apply one of the game's own edits to `work` (the reducer's copy), or refuse it
        with EditRejected naming the field (unknown_edit for anything else)."""

    @abstractmethod
    def score_payload(self, state: S) -> JsonObject:
        """The game's score file for this state (what `village-companion score` reads);
        EditRejected lists what is still missing."""

    # The game's own scorer (its scoring.score_payload), so CLI and app agree.
    scorer: ClassVar[Callable[[JsonObject], ScoreSheet]]

    def score(self, payload: JsonObject) -> ScoreSheet:
        return type(self).scorer(payload)

    @abstractmethod
    def tie_keys(self, state: S) -> list[TieKey]:
        """The game's tie-breaks in order, with each player's value (for explaining)."""

    def sheet(self, state: S) -> ScoreSheet:
        return self.score(self.score_payload(state))
