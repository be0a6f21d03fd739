"""Refused edits: every problem names the field to fix, in the InputProblems style."""

from __future__ import annotations

from collections.abc import Mapping
from typing import NoReturn, TypeVar

from pydantic import BaseModel, ValidationError

from companion.core.errors import Problem, Refused
from companion.core.validation import InputProblems, error_lines

__all__ = ["EditRejected", "Problem", "problems_from_lines", "reject", "validate_model"]

M = TypeVar("M", bound=BaseModel)


class EditRejected(Refused, InputProblems):
    """The rules refused an edit; nothing was changed or saved. A `Refused` (the one type
    an app catches) and still the `InputProblems` the scorers raise, with its `lines`."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__(problems)  # Refused's; InputProblems only adds `lines`:
        self.lines = [p.line for p in self.problems]


def reject(field: str, message: str, key: str | None = None,
           params: Mapping[str, object] | None = None) -> NoReturn:
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


def validate_model(model: type[M], raw: Mapping[str, object]) -> M:
    """Strict validation of one edit; pydantic's errors become named-field problems."""
    try:
        return model.model_validate(dict(raw))
    except ValidationError as exc:
        raise EditRejected(problems_from_lines(error_lines(exc))) from exc
