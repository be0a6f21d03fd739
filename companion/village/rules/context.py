"""What every rule needs besides the state: the component data of this session."""

from __future__ import annotations

from dataclasses import dataclass

from companion.village.components import ComponentData
from companion.village.state import VillageState


@dataclass
class Ctx:
    state: VillageState
    comp: ComponentData

    @property
    def n_players(self) -> int:
        return len(self.state.players)

    def note(self, text: str) -> None:
        self.state.notes.append(text)
