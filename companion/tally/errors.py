"""Refused edits: every problem names the field to fix, in the InputProblems style."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field as dc_field
from typing import Any, NoReturn, TypeVar

from pydantic import BaseModel, ValidationError

from companion.core.validation import InputProblems, error_lines

M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True)
class Problem:
    field: str  # e.g. "value", "players[1].residents", "card"
    message: str  # English; the fallback when there is no key
    key: str | None = None  # e.g. "tally.name_empty": the app words it by key
    params: Mapping[str, Any] = dc_field(default_factory=dict, hash=False)

    @property
    def line(self) -> str:
        return f"{self.field}: {self.message}"


class EditRejected(InputProblems):
    """The rules refused an edit; nothing was changed or saved."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__([p.line for p in problems])
        self.problems = problems

    @property
    def fields(self) -> list[str]:
        return [p.field for p in self.problems]


def reject(field: str, message: str, key: str | None = None,
           params: Mapping[str, Any] | None = None) -> NoReturn:
    raise EditRejected([Problem(field, message, key, dict(params or {}))])


def problems_from_lines(lines: list[str]) -> list[Problem]:
    """'players[0].name: is too long' -> Problem('players[0].name', 'is too long'), with no
    key: the lines are worded in English (the roster checks key their problems where they
    are made: companion.tally.setup.checked_setup)."""
    out = []
    for line in lines:
        field_name, sep, message = line.partition(": ")
        out.append(Problem(field_name, message) if sep else Problem("(input)", line))
    return out


def validate_model(model: type[M], raw: Mapping[str, Any]) -> M:
    """Strict validation of one edit; pydantic's errors become named-field problems."""
    try:
        return model.model_validate(dict(raw))
    except ValidationError as exc:
        raise EditRejected(problems_from_lines(error_lines(exc))) from exc
