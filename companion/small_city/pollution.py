"""Phase 6: measuring pollution and deciding who loses a resident (seed L216-L234).

Order of the seed, step by step:
1. Each town produces: +1 per resident standing in it (visitors included; not those in City
   Hall or graves), +1 per material produced in it this round (visitors' too), -1 per park
   square; this round's amount cannot go below 0 (L218-L221).  With the Engineer action the
   player's factories make no pollution this round (L77).  Every material counted in a town
   was made in that town's factories (visitors' output counts where it is made, L203-L204,
   L219), so the Engineer's town counts 0 for materials; what the Engineer's visitors make
   in other towns' factories still counts for those towns.
2. The amount is added to the accumulated level (L222); levels never go down.
3. The levels are adjusted first, then everyone compares (L223).  Once any player's level
   has reached 10, the player who produced the most this round loses a resident; a tie goes
   to the higher accumulated level; a tie on both means every tied player loses one (L224).
   This applies even if nobody produced anything (L225).
4. A level of 100 puts the player out at once and all their residents die (L228).

Project interpretation (the seed does not decide it): when a player who reaches 100 this
round is also the one picked in step 3, nobody else loses a resident in their place.  L224
picks "the player who produced the most this round" among everyone measured, not among the
players left; that player's single loss is swallowed by losing every resident.

Which figure dies is the player's choice (a visitor is allowed, L229), and a Clinic only
protects the owner's own residents (L230); that is left to the table, so "loses a resident"
here names the town that must lose one.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from companion.scoring.inputs import Count, StrictModel
from companion.small_city.data import (
    DEATH_THRESHOLD,
    ELIMINATION_LEVEL,
    POLLUTION_PER_MATERIAL,
    POLLUTION_PER_PARK_SQUARE,
    POLLUTION_PER_RESIDENT,
)


def produced_pollution(residents: int, materials: int, parks: int, engineer: bool = False) -> int:
    """This round's amount for one town, floored at 0 (L218-L221)."""
    if min(residents, materials, parks) < 0:
        raise ValueError("residents, materials and parks must be 0 or more")
    amount = (POLLUTION_PER_RESIDENT * residents
              + (0 if engineer else POLLUTION_PER_MATERIAL * materials)
              + POLLUTION_PER_PARK_SQUARE * parks)
    return max(0, amount)


class TownPollution(StrictModel):
    """One player's figures for this round's phase 6."""

    name: str
    level: Count  # accumulated level before this round
    residents: Count  # residents and visitors in the town, not in City Hall or graves
    materials: Count  # materials produced in this town this round (visitors' included)
    parks: Count  # park squares in the town
    engineer: bool = False  # took the Engineer action this round


class TownResult(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    produced: int
    level: int  # new accumulated level
    eliminated: bool
    loses_resident: bool


class PollutionOutcome(BaseModel):
    model_config = ConfigDict(frozen=True)

    towns: list[TownResult]
    deaths_triggered: bool  # someone's level has reached DEATH_THRESHOLD
    losers: list[str]  # towns that must lose one resident
    eliminated: list[str]  # towns that reached ELIMINATION_LEVEL this round


def pollution_phase(towns: Sequence[TownPollution]) -> PollutionOutcome:
    """Run phase 6 for all players still in the game, in seat order."""
    for t in towns:
        if t.level >= ELIMINATION_LEVEL:
            raise ValueError(f"{t.name} is already out (level {t.level})")
    produced = [produced_pollution(t.residents, t.materials, t.parks, t.engineer) for t in towns]
    levels = [t.level + p for t, p in zip(towns, produced, strict=True)]
    out = [lv >= ELIMINATION_LEVEL for lv in levels]
    triggered = any(lv >= DEATH_THRESHOLD for lv in levels)

    losing: set[int] = set()
    if triggered:
        # Most produced this round; tie -> higher accumulated level; still tied -> all.
        # Everyone measured is compared, out or not (project interpretation, see above).
        top = max(produced)
        tied = [i for i in range(len(towns)) if produced[i] == top]
        highest = max(levels[i] for i in tied)
        # A picked player who is out loses every resident instead of one.
        losing = {i for i in tied if levels[i] == highest and not out[i]}

    results = [
        TownResult(name=t.name, produced=produced[i], level=levels[i], eliminated=out[i],
                   loses_resident=i in losing)
        for i, t in enumerate(towns)
    ]
    return PollutionOutcome(
        towns=results,
        deaths_triggered=triggered,
        losers=[towns[i].name for i in sorted(losing)],
        eliminated=[t.name for t, gone in zip(towns, out, strict=True) if gone],
    )
