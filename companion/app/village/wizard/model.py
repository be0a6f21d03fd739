"""The new-game wizard's draft: what the players have entered so far (never lost while
they move between steps) and its checks, each naming the field to fix."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Literal

from pydantic import ValidationError

from companion.app.village.readings import in_effect, switchable
from companion.core.json_types import JsonObject
from companion.core.validation import error_lines
from companion.village.components import ComponentData
from companion.village.interpretations import Interpretation, interpretation
from companion.village.setup import PlayerSetup, VillageSetup, check_against_components

Edition = Literal["big-box", "2011"]
DrawMode = Literal["app", "manual"]
KarlaVariant = Literal["standard", "d4"]
KarlaPolicy = Literal["ask", "auto"]
FAMILY_COLOURS = ("red", "yellow", "blue", "white", "purple")
MAX_NAME = 24
# Setup fields the draft keeps as its own attribute (with its own control in the wizard);
# a rules reading stored in another setup field is kept in `WizardDraft.setup_fields`.
DRAFT_FIELDS = ("compensation",)


@dataclass
class Seat:
    name: str
    colour: str


@dataclass
class Problem:
    """What is wrong and where: `field` is the setup's own path ("players[1].name")."""

    field: str
    message: str

    @property
    def seat(self) -> int | None:
        if self.field.startswith("players[") and "]" in self.field:
            try:
                return int(self.field[len("players["):self.field.index("]")])
            except ValueError:
                return None
        return None


@dataclass
class WizardDraft:
    solo: bool = False
    edition: Edition = "big-box"
    seats: list[Seat] = field(default_factory=list)
    karla_colour: str = "purple"
    start_player: int | None = 0  # None: the app draws it
    # Seat compensation: the Big Box rule (on); in 2011 a house rule, off unless chosen
    # (interpretations "compensation_2011"). Set by use_edition_defaults.
    compensation: bool = True
    draw_mode: DrawMode = "app"
    karla_variant: KarlaVariant = "standard"
    karla_policy: KarlaPolicy = "ask"
    # The switchable rules readings of this game (interpretation key -> option), and the
    # values of setup fields a reading is stored in (other than DRAFT_FIELDS).
    readings: dict[str, str] = field(default_factory=dict)
    setup_fields: dict[str, bool] = field(default_factory=dict)

    @classmethod
    def new(cls, *, solo: bool, d4: bool, karla_auto: bool) -> WizardDraft:
        draft = cls(solo=solo, karla_variant="d4" if d4 else "standard",
                    karla_policy="auto" if karla_auto else "ask")
        draft.use_edition_defaults()
        draft.set_count(1 if solo else 3)
        if solo:
            draft.karla_colour = next(c for c in FAMILY_COLOURS
                                      if c != draft.seats[0].colour)
        return draft

    # ---- the edition's rules and the readings chosen for this game -----------------------
    def set_edition(self, edition: Edition) -> None:
        """Another box brings its own rule defaults (seat compensation, the readings)."""
        if edition != self.edition:
            self.edition = edition
            self.use_edition_defaults()

    def use_edition_defaults(self) -> None:
        """Seat compensation as the edition has it (VillageSetup's own default) and every
        switchable reading at the app's reading; a reading kept in a setup field (2011:
        compensation, a house rule) sets that field."""
        self.compensation = self.edition == "big-box"
        self.readings, self.setup_fields = {}, {}
        for item in switchable(self.edition, self.solo):
            self.choose(item.key, item.chosen)

    def switchable(self) -> list[Interpretation]:
        """The readings this game can switch: its edition's and mode's, in effect with
        the others chosen so far (`applies_with`)."""
        return [item for item in switchable(self.edition, self.solo)
                if in_effect(item, self.choice)]

    def choice(self, key: str) -> str:
        """The option of a reading this game will play by."""
        item = interpretation(key)
        if item.setup_field is None:
            return self.readings.get(key, item.chosen)
        return "on" if self._field(item.setup_field) else "off"

    def choose(self, key: str, option: str) -> None:
        item = interpretation(key)
        if option not in item.options:
            raise ValueError(f"readings.{key}: must be one of {', '.join(item.options)}")
        if item.setup_field is None:
            self.readings[key] = option
        elif item.setup_field in DRAFT_FIELDS:
            setattr(self, item.setup_field, option == "on")
        else:
            self.setup_fields[item.setup_field] = option == "on"

    def _field(self, name: str) -> bool:
        if name in DRAFT_FIELDS:
            return bool(getattr(self, name))
        return self.setup_fields.get(name, False)

    # ---- editing --------------------------------------------------------------------------
    @property
    def count(self) -> int:
        return len(self.seats)

    def set_count(self, count: int) -> None:
        """Add or drop seats at the end; names already typed stay."""
        while len(self.seats) > count:
            self.seats.pop()
        while len(self.seats) < count:
            used = {s.colour for s in self.seats} | ({self.karla_colour} if self.solo else set())
            colour = next((c for c in FAMILY_COLOURS if c not in used), FAMILY_COLOURS[0])
            self.seats.append(Seat(name="", colour=colour))
        if self.start_player is not None and self.start_player >= count:
            self.start_player = 0

    def move(self, index: int, step: int) -> None:
        """Seat order is clockwise; moving a seat keeps the chosen start player's person."""
        other = index + step
        if not (0 <= index < self.count and 0 <= other < self.count):
            return
        starter = self.seats[self.start_player] if self.start_player is not None else None
        self.seats[index], self.seats[other] = self.seats[other], self.seats[index]
        if starter is not None:
            self.start_player = self.seats.index(starter)

    def set_colour(self, index: int, colour: str) -> None:
        """Picking a colour someone else has swaps the two (no dead end on a phone)."""
        taken = next((s for s in self.seats if s.colour == colour), None)
        if taken is not None and taken is not self.seats[index]:
            taken.colour = self.seats[index].colour
        elif self.solo and colour == self.karla_colour:
            self.karla_colour = self.seats[index].colour
        self.seats[index].colour = colour

    def set_karla_colour(self, colour: str) -> None:
        if self.seats and self.seats[0].colour == colour:
            self.seats[0].colour = self.karla_colour
        self.karla_colour = colour

    # ---- checking -------------------------------------------------------------------------
    def seat_problems(self, colours: list[str]) -> list[Problem]:
        """Names and colours, checked before leaving the players step."""
        problems: list[Problem] = []
        seen: dict[str, int] = {}
        for i, seat in enumerate(self.seats):
            name = seat.name.strip()
            where = f"players[{i}].name"
            if not name:
                problems.append(Problem(where, "empty"))
            elif len(name) > MAX_NAME:
                problems.append(Problem(where, "too_long"))
            elif name.casefold() in seen:
                problems.append(Problem(where, "duplicate"))
            else:
                seen[name.casefold()] = i
            if seat.colour not in colours:
                problems.append(Problem(f"players[{i}].colour", "colour"))
        return problems

    def to_setup(self, comp: ComponentData, seed: int | None = None) -> VillageSetup:
        """The engine's setup; raises SetupProblem naming the field."""
        items = self.switchable()
        # Every reading this game can switch is stored, default or not: the game
        # keeps what it was started with whatever later builds choose for new games.
        readings = {item.key: self.choice(item.key) for item in items
                    if item.setup_field is None}
        fields: JsonObject = {item.setup_field: self._field(item.setup_field)
                              for item in items if item.setup_field is not None
                              and item.setup_field not in DRAFT_FIELDS}
        try:
            setup = VillageSetup(
                edition=self.edition,
                players=[PlayerSetup(name=s.name, colour=s.colour) for s in self.seats],
                solo=self.solo,
                karla_colour=self.karla_colour if self.solo else None,
                start_player=0 if self.solo else self.start_player,
                compensation=self.compensation and not self.solo,
                karla_variant=self.karla_variant,
                readings=readings,
                seed=secrets.randbelow(2**31) if seed is None else seed,
                **fields,
            )
        except ValidationError as exc:
            field_name, _, message = error_lines(exc)[0].partition(": ")
            raise SetupProblem(field_name, message) from exc
        problems = check_against_components(setup, comp)
        if problems:
            field_name, _, message = problems[0].partition(": ")
            raise SetupProblem(field_name, message)
        return setup


class SetupProblem(ValueError):
    def __init__(self, field_name: str, message: str) -> None:
        super().__init__(f"{field_name}: {message}")
        self.field = field_name
        self.message = message
