"""Villagers end of game (seed L164): money is the score; most money wins, a tie goes to
the player with the fewest villagers in their village, and players still level share."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from companion.scoring.contract import PlayerResult, ScoreSheet
from companion.scoring.tiebreak import TieKey, break_ties

GAME_ID = "villagers"


class FinalVillage(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    money: int
    villagers: int  # villager cards in the village; only for the tie-break


def tie_keys(villagers: Sequence[int]) -> list[TieKey]:
    return [TieKey("villagers", villagers, higher_wins=False, label="fewest villagers")]


def final_sheet(villages: Sequence[FinalVillage]) -> ScoreSheet:
    totals: list[int | None] = [v.money for v in villages]
    ranking = break_ties([v.name for v in villages], totals,
                         tie_keys([v.villagers for v in villages]))
    players = [
        PlayerResult(name=v.name, categories={"money": v.money}, total=v.money,
                     rank=ranking.ranks[i], tiebreak=ranking.notes[i])
        for i, v in enumerate(villages)
    ]
    return ScoreSheet(game=GAME_ID, players=players, winners=ranking.winners)
