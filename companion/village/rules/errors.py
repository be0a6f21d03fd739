"""The typed error every rule raises for a command it cannot accept."""

from __future__ import annotations


class RuleError(ValueError):
    """`field` names what is wrong (a command field, or the game state the command needs)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def require(cond: bool, field: str, message: str) -> None:
    if not cond:
        raise RuleError(field, message)
