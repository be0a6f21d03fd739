"""Feudum final scoring (seed L1040-L1057), shared by the score command and the app.

Categories: vp (the score track), journey, empire, shillings, decrees.  Ties: most sulfur
in the wine cask, then a shared victory (L1054-L1057).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict

from companion.feudum.data import (
    EMPIRE_PER_FIEF,
    EMPIRE_PER_OUTPOST_FARM_TOWN,
    EMPIRE_SET_SIZE,
    EMPIRE_SET_VP,
    JOURNEY_STAGE_VP,
    LOCATION_TYPES,
    MONASTERY_STAGE,
    MONASTERY_VP,
    SHILLINGS_PER_VP,
    LocationType,
)
from companion.scoring.contract import PlayerResult, ScoreSheet
from companion.scoring.tiebreak import TieKey, break_ties

GAME_ID = "feudum"


class Journey(BaseModel):
    """Where a player's disc stands on the epic journey track: stage 0 = not on it,
    1-3 = a stage and the space within it (counted from 1), 4 = the monastery."""

    model_config = ConfigDict(frozen=True)

    stage: int = 0
    position: int = 0


def journey_points(journeys: Sequence[Journey]) -> list[int]:
    """VP for every player's journey (L366, L1044).

    In stages 1-3 the player(s) furthest along among those in the same stage score the
    higher value, everyone else in that stage the lower; stage 4 (the monastery) scores 17.
    """
    best: dict[int, int] = {}
    for j in journeys:
        if j.stage in JOURNEY_STAGE_VP:
            best[j.stage] = max(best.get(j.stage, j.position), j.position)
    points: list[int] = []
    for j in journeys:
        if j.stage == MONASTERY_STAGE:
            points.append(MONASTERY_VP)
        elif j.stage in JOURNEY_STAGE_VP:
            low, high = JOURNEY_STAGE_VP[j.stage]
            points.append(high if j.position == best[j.stage] else low)
        else:
            points.append(0)
    return points


@dataclass(frozen=True)
class Empire:
    points: int
    fief_assignment: dict[LocationType, int]  # how many fiefs stood in for each type
    sets: tuple[LocationType, ...]  # types that reached three


def empire(outpost: int, farm: int, town: int, fief: int) -> Empire:
    """Great empire (L1046-L1048): 1 VP per ruled outpost, farm or town, 3 per ruled fief,
    and 3 VP for each location type ruled three times.

    Fiefs are wild: the seed lets a fief count as "any location type" — fiefs included, so
    three fiefs also make a set — and each location counts toward one type only.  The best
    assignment is found by trying every split of the fiefs over the four types; there are
    at most 12 fiefs (L156), so at most 455 splits.
    """
    if min(outpost, farm, town, fief) < 0:
        raise ValueError("location counts must be 0 or more")
    base = EMPIRE_PER_OUTPOST_FARM_TOWN * (outpost + farm + town) + EMPIRE_PER_FIEF * fief
    own: dict[LocationType, int] = {"outpost": outpost, "farm": farm, "town": town, "fief": 0}
    best: tuple[int, dict[LocationType, int], tuple[LocationType, ...]] = (
        -1, {}, ())
    for to_outpost in range(fief + 1):
        for to_farm in range(fief - to_outpost + 1):
            for to_town in range(fief - to_outpost - to_farm + 1):
                as_fief = fief - to_outpost - to_farm - to_town  # fiefs matching themselves
                split: dict[LocationType, int] = {"outpost": to_outpost, "farm": to_farm,
                                                  "town": to_town, "fief": as_fief}
                sets = tuple(t for t in LOCATION_TYPES
                             if own[t] + split[t] >= EMPIRE_SET_SIZE)
                if len(sets) > best[0]:
                    best = (len(sets), split, sets)
    count, split, sets = best
    return Empire(points=base + EMPIRE_SET_VP * count, fief_assignment=split, sets=sets)


def shillings_points(shillings: int) -> int:
    """1 VP per 3 shillings, rounded down (L1049)."""
    return shillings // SHILLINGS_PER_VP


class FinalFeudum(BaseModel):
    """What the final sheet needs from one player."""

    model_config = ConfigDict(frozen=True)

    name: str
    vp: int
    journey: Journey = Journey()
    outpost: int = 0
    farm: int = 0
    town: int = 0
    fief: int = 0
    shillings: int = 0
    decrees: tuple[int, ...] = ()  # VP of each sealed royal decree charter, as printed
    sulfur: int = 0  # in the wine cask; only for the tie-break


def tie_keys(sulfur: Sequence[int]) -> list[TieKey]:
    return [TieKey("sulfur", sulfur, higher_wins=True, label="most sulfur in the wine cask")]


def final_sheet(players: Sequence[FinalFeudum]) -> ScoreSheet:
    journeys = journey_points([p.journey for p in players])
    rows: list[dict[str, int]] = []
    for p, journey in zip(players, journeys, strict=True):
        rows.append({
            "vp": p.vp,
            "journey": journey,
            "empire": empire(p.outpost, p.farm, p.town, p.fief).points,
            "shillings": shillings_points(p.shillings),
            "decrees": sum(p.decrees),
        })
    totals = [sum(cats.values()) for cats in rows]
    ranking = break_ties([p.name for p in players], totals,
                         tie_keys([p.sulfur for p in players]))
    results = [
        PlayerResult(name=p.name, categories=cats, total=totals[i], rank=ranking.ranks[i],
                     tiebreak=ranking.notes[i])
        for i, (p, cats) in enumerate(zip(players, rows, strict=True))
    ]
    return ScoreSheet(game=GAME_ID, players=results, winners=ranking.winners)
