"""What a game plugs into a tally session: its state model, its edits and its reducer.

Each game's module (companion/<game>/tally.py) subclasses `TallyRules`. The reducer is
pure: `apply` returns a new state and never touches its input, and refuses a bad edit
with EditRejected naming the field. Two edits every game shares live here: setting a
player's number field and nudging it by a delta, checked against the game's FieldSpecs.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict

from companion.scoring.contract import ScoreSheet
from companion.scoring.tiebreak import TieKey
from companion.tally.errors import reject, validate_model
from companion.tally.setup import TallySetup

S = TypeVar("S", bound=BaseModel)
RngFactory = Callable[[str], random.Random]


class Edit(BaseModel):
    """Base of every edit: strict (no `"3"` for 3), unknown fields refused, immutable."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


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


def check_player(index: int, players: Sequence[object], field: str = "player") -> None:
    if not 0 <= index < len(players):
        reject(field, f"must be a player number 0 to {len(players) - 1}, not {index}")


def check_value(spec: FieldSpec, value: int, field: str | None = None) -> None:
    name = field or spec.name
    if spec.minimum is not None and value < spec.minimum:
        reject(name, f"must be at least {spec.minimum}, not {value}")
    if spec.maximum is not None and value > spec.maximum:
        why = f" {spec.why_max}" if spec.why_max else ""
        reject(name, f"must be at most {spec.maximum}{why}, not {value}")


def apply_field_edit(players: Sequence[BaseModel], edit: SetField | AdjustField,
                     specs: Mapping[str, FieldSpec]) -> None:
    """Set or nudge one number field of one player (in place, on the reducer's copy)."""
    check_player(edit.player, players)
    spec = specs.get(edit.field)
    if spec is None:
        reject("field", f"must be one of {', '.join(specs)}, not {edit.field!r}")
    row = players[edit.player]
    value = edit.value if isinstance(edit, SetField) else int(getattr(row, spec.name)) + edit.delta
    check_value(spec, value)
    setattr(row, spec.name, value)


class TallyRules(ABC, Generic[S]):
    game: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    # "type" value -> edit model; the session parses raw edits through it.
    edits: ClassVar[Mapping[str, type[Edit]]]

    @abstractmethod
    def start(self, setup: TallySetup) -> S:
        """The state before any edit."""

    def parse(self, raw: Mapping[str, Any]) -> Edit:
        kind = raw.get("type")
        if not isinstance(kind, str) or kind not in self.edits:
            reject("type", f"must be one of {', '.join(self.edits)}, not {kind!r}")
        return validate_model(self.edits[kind], raw)

    def complete(self, state: S, edit: Edit, rng: RngFactory) -> Edit:
        """Fill in what the app draws for a chance edit (only when it has no outcome yet;
        a replayed edit already carries its recorded outcome)."""
        return edit

    @abstractmethod
    def apply(self, state: S, edit: Edit) -> S:
        """A new state with the edit applied, or EditRejected naming the field."""

    @abstractmethod
    def score_payload(self, state: S) -> dict[str, Any]:
        """The game's score file for this state (what `village-companion score` reads);
        EditRejected lists what is still missing."""

    @abstractmethod
    def score(self, payload: dict[str, Any]) -> ScoreSheet:
        """The game's own scorer (its scoring.score_payload), so CLI and app agree."""

    @abstractmethod
    def tie_keys(self, state: S) -> list[TieKey]:
        """The game's tie-breaks in order, with each player's value (for explaining)."""

    def sheet(self, state: S) -> ScoreSheet:
        return self.score(self.score_payload(state))
