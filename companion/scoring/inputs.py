"""Input building blocks shared by the score-file models of several games.

Every game's score file is checked the same way: counts are strict non-negative whole
numbers (no `true`, no `"3"`, no `2.0`), unknown fields are refused, and each problem comes
back as one line naming the field.  Games only add their own rule checks on top.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from companion.core.validation import InputProblems, error_lines

# strict=True so JSON `true` or `"3"` is refused rather than silently coerced to a count.
Count = Annotated[int, Field(strict=True, ge=0)]


class StrictModel(BaseModel):
    """Base for score-file models: unknown fields are errors, nothing is coerced."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


M = TypeVar("M", bound=BaseModel)


def parse_payload(
    model: type[M],
    payload: dict[str, Any],
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


def roster_problems(names: Sequence[str], minimum: int, maximum: int) -> list[str]:
    """Player-count and name checks every game needs (names must be non-empty and unique,
    because winners are reported by name)."""
    problems: list[str] = []
    if not minimum <= len(names) <= maximum:
        problems.append(f"players: must list {minimum} to {maximum} players, not {len(names)}")
    seen: dict[str, int] = {}
    for i, name in enumerate(names):
        key = name.strip().casefold()
        if not key:
            problems.append(f"players[{i}].name: must not be empty")
        elif key in seen:
            problems.append(f"players[{i}].name: must be unique (players[{seen[key]}] "
                            f"is also called {name!r})")
        else:
            seen[key] = i
    return problems
