"""What every rule needs besides the state: the component data of this session."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from pydantic import BaseModel

from companion.village.commands import Command
from companion.village.components import ComponentData
from companion.village.interpretations import default_reading
from companion.village.notes import render_en
from companion.village.state import VillageState


@dataclass
class Ctx:
    state: VillageState
    comp: ComponentData

    @property
    def n_players(self) -> int:
        return len(self.state.players)

    @property
    def rules_version(self) -> int:
        """The game's rules version: a fix applies from version 2 (`>= 2`); older games
        keep the rules they started with."""
        return self.state.rules_version

    def reading(self, key: str) -> str:
        """The reading of an interpretations.json entry this game plays by."""
        return self.state.readings.get(key) or default_reading(key, self.state.rules_version)

    def note(self, key: str, **params: object) -> None:
        """Record a table note: English text for logs and tests, key + params for the app."""
        self.state.notes.append(render_en(key, params))
        self.state.note_data.append({"key": key, "params": params})


# ---- the engine's handlers, one per command model ------------------------------------------
Handler = Callable[[Ctx, Command], None]
_C = TypeVar("_C", bound=BaseModel)


def handles(model: type[_C], rule: Callable[[Ctx, _C], None]) -> tuple[str, Handler]:
    """`rule` as the handler of `model`'s commands, keyed by the model's type tag: the
    engine calls it with any Command, the rule gets exactly its own model."""
    tag = str(model.model_fields["type"].default)

    def handler(ctx: Ctx, cmd: Command) -> None:
        if not isinstance(cmd, model):
            raise TypeError(f"the {tag} handler got a {type(cmd).__name__}")
        rule(ctx, cmd)

    handler.__name__ = getattr(rule, "__name__", tag)
    return tag, handler
