"""Where the table is in the game: round 1-8, phase 1-8 (seed L52-L60)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from companion.small_city.data import PHASES, ROUNDS

PhaseNumber = Annotated[int, Field(strict=True, ge=1, le=len(PHASES))]
RoundNumber = Annotated[int, Field(strict=True, ge=1, le=ROUNDS)]


class Phase(BaseModel):
    model_config = ConfigDict(frozen=True)

    number: int
    id: str
    name_en: str
    name_zh_hant: str


PHASE_LIST: tuple[Phase, ...] = tuple(
    Phase(number=n, id=pid, name_en=en, name_zh_hant=zh) for n, pid, en, zh in PHASES
)


def phase(number: int) -> Phase:
    """Phase by its printed number (1 = special action ... 8 = mayor's next visit)."""
    if not 1 <= number <= len(PHASE_LIST):
        raise ValueError(f"phase must be 1 to {len(PHASE_LIST)}, not {number}")
    return PHASE_LIST[number - 1]


class Step(BaseModel):
    """A point in the game: round and phase."""

    model_config = ConfigDict(frozen=True, strict=True)

    round: RoundNumber = 1
    phase: PhaseNumber = 1

    @property
    def phase_info(self) -> Phase:
        return phase(self.phase)

    def next(self) -> Step | None:
        """The step after this one, or None once phase 8 of round 8 is done (game end)."""
        if self.phase < len(PHASE_LIST):
            return Step(round=self.round, phase=self.phase + 1)
        if self.round < ROUNDS:
            return Step(round=self.round + 1, phase=1)
        return None

    @property
    def is_last_round(self) -> bool:
        return self.round == ROUNDS
