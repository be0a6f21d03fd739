"""What every rule needs besides the state: the component data of this session."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.village.components import ComponentData
from companion.village.notes import render_en
from companion.village.state import VillageState


@dataclass
class Ctx:
    state: VillageState
    comp: ComponentData

    @property
    def n_players(self) -> int:
        return len(self.state.players)

    def note(self, key: str, **params: Any) -> None:
        """Record a table note: English text for logs and tests, key + params for the app."""
        self.state.notes.append(render_en(key, params))
        self.state.note_data.append({"key": key, "params": params})
