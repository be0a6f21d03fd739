"""Input building blocks shared by the score-file models of several games.

Every game's score file is checked the same way: counts are strict non-negative whole
numbers (no `true`, no `"3"`, no `2.0`), unknown fields are refused, and each problem comes
back as one line naming the field.  Games only add their own rule checks on top; with
`parse_players_payload` those run on every player whose shape is right, so one run reports
every problem it can.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Annotated, NamedTuple, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from companion.core.json_types import JsonObject
from companion.core.validation import InputProblems, error_lines

# strict=True so JSON `true` or `"3"` is refused rather than silently coerced to a count.
Count = Annotated[int, Field(strict=True, ge=0)]


class StrictModel(BaseModel):
    """Base for score-file models: unknown fields are errors, nothing is coerced."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


M = TypeVar("M", bound=BaseModel)
P = TypeVar("P", bound=BaseModel)
_PLAYER_FIELD = re.compile(r"^players\[(\d+)\]")


def parse_payload(
    model: type[M],
    payload: JsonObject,
    checks: Callable[[M], list[str]] | None = None,
) -> M:
    """Validate `payload` as `model`, then run the game's rule `checks`.

    Raises InputProblems with one line per problem, each naming its field.  Rule checks run
    only when the shape is right, so they can rely on the types.
    """
    try:
        parsed = model.model_validate(payload)
    except ValidationError as exc:
        raise InputProblems(error_lines(exc)) from exc
    if checks is not None:
        problems = checks(parsed)
        if problems:
            raise InputProblems(problems)
    return parsed


def parse_players_payload(
    model: type[M],
    player_model: type[P],
    payload: JsonObject,
    *,
    minimum: int,
    maximum: int,
    player_checks: Callable[[str, P], list[str]] | None = None,
    checks: Callable[[M], list[str]] | None = None,
) -> M:
    """Validate a `{"players": [...]}` score file as `model` and report every problem at once.

    Shape problems come from `model`; the roster check (player count, names) and the game's
    `player_checks(at, player)` (`at` is "players[i]") also run when some other part of the
    file is malformed: on the raw list, and on each player that `player_model` accepts on
    its own.  File-level `checks(parsed)` run when the whole file has the right shape.
    Raises InputProblems with one line per problem, each naming its field, in player order.
    """
    lines: list[str] = []
    parsed: M | None = None
    try:
        parsed = model.model_validate(payload)
    except ValidationError as exc:
        lines += error_lines(exc)
    raw = payload.get("players")
    if isinstance(raw, list):
        # None for a name that is missing or not text: its shape line already says so.
        names = [e.get("name") if isinstance(e, dict) and isinstance(e.get("name"), str)
                 else None for e in raw]
        lines += roster_problems(names, minimum, maximum)
        for i, entry in enumerate(raw):
            try:
                player = player_model.model_validate(entry)
            except ValidationError:
                continue  # its shape lines are already in `lines`
            if player_checks is not None:
                lines += player_checks(f"players[{i}]", player)
    if parsed is not None and checks is not None:
        lines += checks(parsed)
    if lines or parsed is None:  # parsed is None only with shape lines
        raise InputProblems(sorted(lines, key=player_line_order))
    return parsed


def player_line_order(line: str) -> int:
    """Sort key putting file-level lines first, then each player's lines in input order."""
    match = _PLAYER_FIELD.match(line)
    return int(match.group(1)) if match else -1


class RosterProblem(NamedTuple):
    """One roster problem: the field, the English message, and the key + params an app
    words it by in the player's language ("tally.name_empty", ...)."""

    field: str
    message: str
    key: str
    params: JsonObject

    @property
    def line(self) -> str:
        return f"{self.field}: {self.message}"


def roster_checks(names: Sequence[str | None], minimum: int,
                  maximum: int) -> list[RosterProblem]:
    """Player-count and name checks every game needs (names must be non-empty and unique,
    because winners are reported by name).  A None name (not given as text) is skipped."""
    problems: list[RosterProblem] = []
    if not minimum <= len(names) <= maximum:
        problems.append(RosterProblem(
            "players", f"must list {minimum} to {maximum} players, not {len(names)}",
            "tally.player_count",
            {"minimum": minimum, "maximum": maximum, "count": len(names)}))
    seen: dict[str, int] = {}
    for i, name in enumerate(names):
        if name is None:
            continue
        key = name.strip().casefold()
        if not key:
            problems.append(RosterProblem(f"players[{i}].name", "must not be empty",
                                          "tally.name_empty", {}))
        elif key in seen:
            problems.append(RosterProblem(
                f"players[{i}].name",
                f"must be unique (players[{seen[key]}] is also called {name!r})",
                "tally.name_duplicate", {"other": seen[key], "name": name}))
        else:
            seen[key] = i
    return problems


def roster_problems(names: Sequence[str | None], minimum: int, maximum: int) -> list[str]:
    """The roster checks (roster_checks) as "field: message" lines."""
    return [p.line for p in roster_checks(names, minimum, maximum)]
