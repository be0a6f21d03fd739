"""`score_payload` for Feudum score files.

    {"game": "feudum", "players": [{"name": "Ann", "vp": 80,
      "journey": {"stage": 2, "position": 3},
      "ruled": {"outpost": 1, "farm": 3, "town": 0, "fief": 1},
      "shillings": 7, "decrees": [5], "sulfur": 2}]}

`journey.stage` is 0 (not on the track), 1-3, or 4 (the monastery); `journey.position` is
the space within the stage counted from 1 (0 when stage is 0, 1 at the monastery, which has
one space).  `vp` may be negative: disloyalty penalties can take a vassal below 0 and the
seed sets no floor (L446-L450).  `decrees` lists the VP of each sealed charter.  `sulfur` is
what is in the wine cask (the tie-break).  See companion.feudum.final for the rules.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from companion.feudum.data import (
    FIEF_DISCS,
    MAP_LOCATIONS,
    MAX_DECREES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MONASTERY_STAGE,
    WINE_CASK_MAX_SULFUR,
)
from companion.feudum.final import FinalFeudum, Journey, final_sheet
from companion.scoring.contract import ScoreSheet
from companion.scoring.inputs import Count, StrictModel, parse_players_payload

# The VP track total: a whole number that may be below 0 (no floor in the seed).
SignedVP = Annotated[int, Field(strict=True)]


class JourneyIn(StrictModel):
    stage: Annotated[int, Field(strict=True, ge=0, le=MONASTERY_STAGE)] = 0
    position: Count = 0


class RuledIn(StrictModel):
    outpost: Count = 0
    farm: Count = 0
    town: Count = 0
    fief: Count = 0


class PlayerIn(StrictModel):
    name: str
    vp: SignedVP
    journey: JourneyIn = JourneyIn()
    ruled: RuledIn = RuledIn()
    shillings: Count = 0
    decrees: list[Count] = []
    sulfur: Count = 0


class FeudumIn(StrictModel):
    game: Literal["feudum"]
    players: list[PlayerIn]


def _player_problems(at: str, p: PlayerIn) -> list[str]:
    problems: list[str] = []
    stage, pos = p.journey.stage, p.journey.position
    if stage == 0 and pos != 0:
        problems.append(f"{at}.journey.position: must be 0 when stage is 0 "
                        "(the disc is not on the journey track)")
    elif stage == MONASTERY_STAGE and pos != 1:
        problems.append(f"{at}.journey.position: must be 1 when stage is "
                        f"{MONASTERY_STAGE} (the monastery is a single space)")
    elif 0 < stage < MONASTERY_STAGE and pos < 1:
        problems.append(f"{at}.journey.position: must be at least 1 when stage is "
                        f"{stage} (spaces are counted from 1)")
    if p.sulfur > WINE_CASK_MAX_SULFUR:
        problems.append(f"{at}.sulfur: must be at most {WINE_CASK_MAX_SULFUR} "
                        "(the wine cask holds 3 sulfur)")
    if len(p.decrees) > MAX_DECREES:
        problems.append(f"{at}.decrees: must list at most {MAX_DECREES} cards "
                        "(a player never holds more than 3 royal decrees)")
    if p.ruled.fief > FIEF_DISCS:
        problems.append(f"{at}.ruled.fief: must be at most {FIEF_DISCS} "
                        "(the game has 12 fief discs)")
    ruled = p.ruled.outpost + p.ruled.farm + p.ruled.town + p.ruled.fief
    if ruled > MAP_LOCATIONS:
        problems.append(f"{at}.ruled: must add up to at most {MAP_LOCATIONS} locations "
                        f"(the map has {MAP_LOCATIONS} location spaces), not {ruled}")
    return problems


def score_payload(payload: dict[str, Any]) -> ScoreSheet:
    parsed = parse_players_payload(FeudumIn, PlayerIn, payload, minimum=MIN_PLAYERS,
                                   maximum=MAX_PLAYERS, player_checks=_player_problems)
    return final_sheet([
        FinalFeudum(
            name=p.name, vp=p.vp,
            journey=Journey(stage=p.journey.stage, position=p.journey.position),
            outpost=p.ruled.outpost, farm=p.ruled.farm, town=p.ruled.town, fief=p.ruled.fief,
            shillings=p.shillings, decrees=tuple(p.decrees), sulfur=p.sulfur,
        )
        for p in parsed.players
    ])
