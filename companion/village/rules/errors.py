"""The typed error every rule raises for a command it cannot accept."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from companion.core.errors import Problem, Refused
from companion.core.validation import error_lines, field_path


class RuleError(Refused):
    """`field` names what is wrong (a command field, or the game state the command needs).
    `key` and `params` (set where the refusal is raised, e.g. "rule.not_enough_coins" with
    {"name", "have", "need"}) let the app word the refusal in the player's language from
    its catalogues ("error.<key>"); `message` stays the English text (and the fallback when
    there is no key)."""

    def __init__(self, field: str, message: str, key: str | None = None,
                 params: Mapping[str, Any] | None = None) -> None:
        # One problem; Refused sets field/message/key/params and the text "field: message".
        super().__init__([Problem(field, message, key, dict(params or {}))])


def require(cond: bool, field: str, message: str, key: str | None = None,
            params: Mapping[str, Any] | None = None) -> None:
    if not cond:
        raise RuleError(field, message, key, params)


def from_validation(exc: ValidationError, prefix: str = "", tag: str | None = None,
                    default: str = "type") -> RuleError:
    """The first problem of a pydantic validation as a RuleError naming its field:
    `prefix` goes in front of the field path ("outcome" -> "outcome.placements.market"),
    a leading `tag` (a union's discriminator value) is left out, and a problem with the
    whole input names `prefix` or else `default`."""
    err = exc.errors()[0]
    loc = [p for p in err.get("loc", ()) if not (isinstance(p, str) and "[" in p)]
    line = error_lines(exc)[0]
    if loc:
        message = line[len(field_path(loc)) + 2:]
        if tag is not None and loc[0] == tag:
            loc = loc[1:]
        path = field_path(loc) if loc else ""
    else:
        named, _, rest = line.partition(": ")
        path, message = ("", rest) if named == "(input)" else (named, rest)
    if prefix and path:
        field = prefix + (path if path.startswith("[") else "." + path)
    else:
        field = prefix or path or default
    return RuleError(field, message or "is invalid")
