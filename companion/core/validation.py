"""Turn pydantic validation errors into one readable line per problem, naming the field."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError

_NAMED = re.compile(r"^[A-Za-z_][\w.\[\]]*: ")


def field_path(loc: Sequence[Any]) -> str:
    """('players', 0, 'cities') -> 'players[0].cities'."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "(input)"


def _message(err: Any) -> str:
    kind = err.get("type", "")
    ctx = err.get("ctx") or {}
    if kind == "missing":
        return "is required"
    if kind == "extra_forbidden":
        return "is not a known field"
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return "must be a whole number"
    if kind == "bool_type":
        return "must be true or false"
    if kind in ("string_type",):
        return "must be text"
    if kind in ("list_type",):
        return "must be a list"
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return "must be an object"
    if kind == "greater_than_equal":
        return f"must be at least {ctx.get('ge')}"
    if kind == "less_than_equal":
        return f"must be at most {ctx.get('le')}"
    if kind == "literal_error":
        return f"must be one of {ctx.get('expected')}"
    if kind == "enum":
        return f"must be one of {ctx.get('expected')}"
    msg = str(err.get("msg", "is invalid"))
    return msg.removeprefix("Value error, ")


def error_lines(exc: ValidationError) -> list[str]:
    """One line per problem: 'players[0].cities: must be between 0 and 6'."""
    lines = []
    for err in exc.errors():
        loc = [p for p in err.get("loc", ()) if not (isinstance(p, str) and "[" in p)]
        message = _message(err)
        named = _NAMED.match(message)
        if not loc and named:  # a whole-model check that names its own field
            lines.append(message)
        else:
            lines.append(f"{field_path(loc)}: {message}")
    return lines


class InputProblems(Exception):
    """Raised by scorers and commands when input is invalid; each line names a field."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines
