"""`score_payload` for Villagers score files.

    {"game": "villagers", "players": [{"name": "Ann", "money": 74, "villagers": 23}]}

One category, money; ties go to the fewest villagers.  See companion.villagers.final.
"""

from __future__ import annotations

from typing import Any, Literal

from companion.scoring.contract import ScoreSheet
from companion.scoring.inputs import Count, StrictModel, parse_players_payload
from companion.villagers.data import MAX_PLAYERS, MIN_PLAYERS
from companion.villagers.final import FinalVillage, final_sheet


class PlayerIn(StrictModel):
    name: str
    money: Count
    villagers: Count


class VillagersIn(StrictModel):
    game: Literal["villagers"]
    players: list[PlayerIn]


def score_payload(payload: dict[str, Any]) -> ScoreSheet:
    parsed = parse_players_payload(VillagersIn, PlayerIn, payload, minimum=MIN_PLAYERS,
                                   maximum=MAX_PLAYERS)
    return final_sheet([FinalVillage(name=p.name, money=p.money, villagers=p.villagers)
                        for p in parsed.players])
