"""What every rule needs besides the state: the component data of this session."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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

    def note(self, key: str, **params: Any) -> None:
        """Record a table note: English text for logs and tests, key + params for the app."""
        self.state.notes.append(render_en(key, params))
        self.state.note_data.append({"key": key, "params": params})
