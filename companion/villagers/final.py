"""Villagers end of game (seed L164): money is the score; most money wins, a tie goes to
the player with the fewest villagers in their village, and players still level share."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from companion.scoring.contract import PlayerResult, ScoreSheet, winners_of
from companion.scoring.tiebreak import TieBreak, rank_with_tiebreaks

GAME_ID = "villagers"


class FinalVillage(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    money: int
    villagers: int  # villager cards in the village; only for the tie-break


def final_sheet(villages: Sequence[FinalVillage]) -> ScoreSheet:
    totals: list[int | None] = [v.money for v in villages]
    ranking = rank_with_tiebreaks(
        [v.name for v in villages], totals,
        [TieBreak("fewest villagers", "villagers", [v.villagers for v in villages],
                  higher_wins=False)],
    )
    players = [
        PlayerResult(name=v.name, categories={"money": v.money}, total=v.money,
                     rank=ranking.ranks[i], tiebreak=ranking.notes[i])
        for i, v in enumerate(villages)
    ]
    return ScoreSheet(game=GAME_ID, players=players, winners=winners_of(players))
