"""The one refusal type: every game's rules refuse input by raising a `Refused`.

A refusal lists its problems; each names the field to fix, an English message (the
fallback) and, where the raise site gives one, a catalogue `key` with `params`, so an app
can catch `Refused` once and word any game's refusal in the player's language.
Village raises `RuleError` (one problem) and the scoring assistants `EditRejected` (one
or more): both are subclasses, keeping their own constructors.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dc_field


@dataclass(frozen=True)
class Problem:
    field: str  # e.g. "value", "players[1].residents", "outcome.colour"
    message: str  # English; the fallback when there is no key
    key: str | None = None  # e.g. "tally.name_empty": the app words it by key
    params: Mapping[str, object] = dc_field(default_factory=dict, hash=False)

    @property
    def line(self) -> str:
        return f"{self.field}: {self.message}"


class Refused(ValueError):
    """Input the rules do not accept; nothing was changed. The first problem's
    field/message/key/params are plain attributes (the one-problem case reads them)."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        if not problems:  # a refusal that names nothing could not be worded or fixed
            raise ValueError("a refusal names at least one problem")
        self.problems: list[Problem] = list(problems)
        super().__init__("\n".join(p.line for p in self.problems))
        first = self.problems[0]
        self.field: str = first.field
        self.message: str = first.message
        self.key: str | None = first.key
        self.params: dict[str, object] = dict(first.params)

    @staticmethod
    def one(field: str, message: str, key: str | None = None,
            params: Mapping[str, object] | None = None) -> Refused:
        """A refusal with one problem (a subclass has its own constructor)."""
        return Refused([Problem(field, message, key, dict(params or {}))])

    @property
    def fields(self) -> list[str]:
        return [p.field for p in self.problems]


class EngineFault(RuntimeError):
    """A fault inside a game engine (a bug), never a refusal: the rules did not refuse the
    input, the code failed on it. The state is left as it was, like a refusal, but callers
    must not mistake it for one: tests, fuzzers and autoplay treat it as a failure, and the
    app says calmly that nothing was changed. The original exception is the `__cause__`."""

    def __init__(self, command: str, original: BaseException) -> None:
        self.command = command
        self.error = type(original).__name__
        self.detail = str(original)
        super().__init__(f"the engine failed on {command!r} ({self.error}: {self.detail})")
