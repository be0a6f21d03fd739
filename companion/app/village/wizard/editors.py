"""Inline editors for correcting an estimated component value. Each keeps what was typed
until the correction is accepted; `parse()` names the field that is wrong."""

from __future__ import annotations

import json
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

import flet as ft

from companion.app.kit import BODY_TEXT_SIZE, TOUCH_TARGET, icon_button
from companion.app.village.present import term
from companion.app.village.table.cubes import colour_dot
from companion.app.village.wizard.model import FAMILY_COLOURS
from companion.app.village.wizard.schematics import MARK_TEXT
from companion.core.json_types import JsonObject

if TYPE_CHECKING:
    from companion.app.context import AppContext

MARKS = (2, 3, 4, 5)


class EditProblem(ValueError):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class Editor(Protocol):
    def build(self) -> ft.Control: ...

    def parse(self) -> Any: ...


class _Numbers:
    """Labelled whole-number fields; the wrong one gets its own error text."""

    def __init__(self, ctx: AppContext) -> None:
        self.ctx = ctx
        self.fields: dict[str, ft.TextField] = {}
        self.names: dict[str, str] = {}  # how an error names the field (may say more)

    def field(self, key: str, label: str, value: object, width: int = 96,
              name: str | None = None) -> ft.TextField:
        # Rebuilt views get fresh controls carrying what was typed (and its error).
        old = self.fields.get(key)
        tf = ft.TextField(label=label, width=width, keyboard_type=ft.KeyboardType.NUMBER,
                          text_size=BODY_TEXT_SIZE,
                          value=old.value if old else ("" if value is None else str(value)),
                          error=old.error if old else None)
        self.fields[key] = tf
        self.names[key] = name or label
        return tf

    def read(self, key: str, *, low: int = 0) -> int:
        tf = self.fields[key]
        raw = (tf.value or "").strip()
        try:
            number = int(raw)
        except ValueError:
            number = None
        if number is None or number < low:
            message = self.ctx.t("village.edit.whole_number", low=low)
            tf.error = message
            raise EditProblem(self.names.get(key, str(tf.label)), message)
        tf.error = None
        return number

    def clear(self) -> None:
        for tf in self.fields.values():
            tf.error = None


class IntEditor(_Numbers):
    def __init__(self, ctx: AppContext, label: str, value: object, *, low: int = 1) -> None:
        super().__init__(ctx)
        self.label, self.value, self.low = label, value, low

    def build(self) -> ft.Control:
        return self.field("value", self.label, self.value, width=160)

    def parse(self) -> int:
        return self.read("value", low=self.low)


class CardEditor(_Numbers):
    """One setup card: cubes per colour into the bag, cubes on each action space."""

    def __init__(self, ctx: AppContext, card: JsonObject) -> None:
        super().__init__(ctx)
        self.card = card

    def build(self) -> ft.Control:
        fields: list[ft.Control] = [self.field("bag", self.ctx.t("village.edit.bag_per_colour"),
                                               self.card.get("bag_per_colour"), width=200)]
        fields += [self.field(space, term(self.ctx, "space", space), n)
                   for space, n in dict(self.card.get("spaces", {})).items()]
        return ft.Row(fields, wrap=True, spacing=8, run_spacing=8)

    def parse(self) -> JsonObject:
        self.clear()
        bag = self.read("bag")
        spaces = {space: self.read(space) for space in self.card.get("spaces", {})}
        return {"bag_per_colour": bag, "spaces": spaces}


class LevelsEditor(_Numbers):
    """A number per level: council time, or church grain, to enter each level."""

    def __init__(self, ctx: AppContext, levels: dict[str, int]) -> None:
        super().__init__(ctx)
        self.levels = levels

    def build(self) -> ft.Control:
        return ft.Row([self.field(level, self.ctx.t("village.schematic.level", level=level), n)
                       for level, n in self.levels.items()], wrap=True, spacing=8)

    def parse(self) -> dict[str, int]:
        self.clear()
        return {level: self.read(level) for level in self.levels}


class MarksEditor(_Numbers):
    """Slots by player-count mark: unmarked, "3-5", "4-5", "5" (counts of each)."""

    def __init__(self, ctx: AppContext, marks: list[int], prefix: str = "",
                 hint: bool = False) -> None:
        super().__init__(ctx)
        self.marks, self.prefix, self.hint = [int(m) for m in marks], prefix, hint

    def _label(self, mark: int) -> str:
        return self.ctx.t("village.edit.unmarked") if mark == 2 else MARK_TEXT[mark]

    def build(self) -> ft.Control:
        # Short labels so four fit in a row; an error still names the section.
        row = ft.Row([self.field(str(m), self._label(m), self.marks.count(m), width=70,
                                  name=f"{self.prefix}: {self._label(m)}" if self.prefix
                                  else None)
                      for m in MARKS], wrap=True, spacing=4, run_spacing=6)
        if not self.hint:
            return row
        return ft.Column([ft.Text(self.ctx.t("village.edit.marks_hint"), size=BODY_TEXT_SIZE),
                          row], spacing=8, tight=True)

    def parse(self) -> list[int]:
        out: list[int] = []
        for m in MARKS:
            out += [m] * self.read(str(m))
        return out


class SectionsEditor:
    def __init__(self, ctx: AppContext, sections: dict[str, list[int]]) -> None:
        self.ctx = ctx
        self.editors = {s: MarksEditor(ctx, marks, term(ctx, "section", s))
                        for s, marks in sections.items()}

    def build(self) -> ft.Control:
        rows: list[ft.Control] = [ft.Text(self.ctx.t("village.edit.marks_hint"),
                                          size=BODY_TEXT_SIZE)]
        rows += [ft.Column([ft.Text(term(self.ctx, "section", s), size=BODY_TEXT_SIZE,
                                    weight=ft.FontWeight.W_600), e.build()],
                           spacing=4, tight=True)
                 for s, e in self.editors.items()]
        return ft.Column(rows, spacing=10, tight=True)

    def parse(self) -> dict[str, list[int]]:
        for e in self.editors.values():
            e.clear()
        return {s: e.parse() for s, e in self.editors.items()}


class FateEditor(_Numbers):
    """Which space of Karla's board each fate tile follows, counted from 1."""

    def __init__(self, ctx: AppContext, fate: dict[str, list[int]]) -> None:
        super().__init__(ctx)
        self.fate = fate

    def build(self) -> ft.Control:
        rows: list[ft.Control] = []
        for side, positions in self.fate.items():
            rows.append(ft.Row([
                self.field(f"{side}.{i}", self.ctx.t("village.edit.fate_tile",
                                                     side=term(self.ctx, "side", side),
                                                     tile=i + 1), p + 1, width=150)
                for i, p in enumerate(positions)], wrap=True, spacing=6, run_spacing=6))
        return ft.Column(rows, spacing=8, tight=True)

    def parse(self) -> dict[str, list[int]]:
        self.clear()
        return {side: [self.read(f"{side}.{i}", low=1) - 1 for i in range(len(positions))]
                for side, positions in self.fate.items()}


class OrderEditor:
    """Karla's clockwise order of action spaces: move rows up and down."""

    def __init__(self, ctx: AppContext, order: list[str]) -> None:
        self.ctx = ctx
        self.order = list(order)
        self.column = ft.Column(spacing=2, tight=True)

    def build(self) -> ft.Control:
        self._render()
        return self.column

    def _render(self) -> None:
        t = self.ctx.t
        self.column.controls = [ft.Row([
            ft.Text(f"{i + 1}. {term(self.ctx, 'space', space)}", size=BODY_TEXT_SIZE,
                    expand=True),
            ft.Semantics(identifier=f"order-{i}-up", content=icon_button(
                ft.Icons.ARROW_UPWARD, t("village.wizard.move_up"),
                partial(self._move, i, -1), disabled=i == 0)),
            ft.Semantics(identifier=f"order-{i}-down", content=icon_button(
                ft.Icons.ARROW_DOWNWARD, t("village.wizard.move_down"),
                partial(self._move, i, +1), disabled=i == len(self.order) - 1)),
        ]) for i, space in enumerate(self.order)]

    def _move(self, i: int, step: int) -> None:
        j = i + step
        if 0 <= j < len(self.order):
            self.order[i], self.order[j] = self.order[j], self.order[i]
            self._render()

    def parse(self) -> list[str]:
        return list(self.order)


class ColoursEditor:
    def __init__(self, ctx: AppContext, colours: list[str]) -> None:
        self.ctx = ctx
        self.chosen = list(colours)
        self.options = list(dict.fromkeys([*FAMILY_COLOURS, *colours]))
        self.row = ft.Row(wrap=True, spacing=6, run_spacing=6)

    def build(self) -> ft.Control:
        self._render()
        return self.row

    def _render(self) -> None:
        self.row.controls = [ft.Chip(
            label=ft.Text(term(self.ctx, "colour", c)), leading=colour_dot(c, 18),
            selected=c in self.chosen, on_select=partial(self._toggle, c), height=TOUCH_TARGET)
            for c in self.options]

    def _toggle(self, colour: str) -> None:
        if colour in self.chosen:
            self.chosen.remove(colour)
        else:
            self.chosen.append(colour)
        self._render()

    def parse(self) -> list[str]:
        if len(self.chosen) < 2:
            raise EditProblem(self.ctx.t("village.edit.colours"),
                              self.ctx.t("village.edit.two_colours"))
        return [c for c in self.options if c in self.chosen]


class JsonEditor:
    """Anything else: the value as JSON text."""

    def __init__(self, ctx: AppContext, label: str, value: object) -> None:
        self.ctx = ctx
        self.label = label
        self.tf = ft.TextField(label=label, value=json.dumps(value), multiline=True,
                               text_size=BODY_TEXT_SIZE)

    def build(self) -> ft.Control:
        self.tf = ft.TextField(label=self.label, value=self.tf.value, error=self.tf.error,
                               multiline=True, text_size=BODY_TEXT_SIZE)
        return self.tf

    def parse(self) -> Any:
        try:
            value = json.loads(self.tf.value or "")
        except ValueError as exc:
            self.tf.error = self.ctx.t("village.edit.json")
            raise EditProblem(str(self.tf.label), self.ctx.t("village.edit.json")) from exc
        self.tf.error = None
        return value


def editor_for(ctx: AppContext, key: str, label: str, value: object) -> Editor:
    if key == "setup_cards" and isinstance(value, dict):
        return CardEditor(ctx, value)
    if key in ("council_advance_time", "church_advance_grain") and isinstance(value, dict):
        return LevelsEditor(ctx, value)
    if key == "chronicle_sections" and isinstance(value, dict):
        return SectionsEditor(ctx, value)
    if key == "graveyard_slots" and isinstance(value, list):
        return MarksEditor(ctx, value, hint=True)
    if key == "karla_fate_after" and isinstance(value, dict):
        return FateEditor(ctx, value)
    if key == "karla_action_order" and isinstance(value, list):
        return OrderEditor(ctx, value)
    if key == "player_colours" and isinstance(value, list):
        return ColoursEditor(ctx, value)
    if isinstance(value, int) and not isinstance(value, bool):
        low = 2 if key.endswith("_length") else 1 if key == "travel_cities" else 0
        return IntEditor(ctx, label, value, low=low)
    return JsonEditor(ctx, label, value)
