"""Small City end of game (seed L255-L263), shared by the score command and the app.

Final score = votes + promise votes - pollution level.  Ties: lowest pollution, then most
money; players still level share the rank.  A player whose pollution reached 100 left the
game (L228): they are marked eliminated and get no total and no rank.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from companion.scoring.contract import PlayerResult, ScoreSheet
from companion.scoring.tiebreak import TieKey, break_ties
from companion.small_city.data import ELIMINATION_LEVEL
from companion.small_city.promises import promise_votes

GAME_ID = "small-city"


class KeptPromise(BaseModel):
    model_config = ConfigDict(frozen=True)

    value: int  # 6, 12 or 18
    fulfilled: bool


class FinalCity(BaseModel):
    """What the end-of-game sheet needs from one player."""

    model_config = ConfigDict(frozen=True)

    name: str
    votes: int  # the vote track
    pollution: int  # accumulated level
    money: int  # only for the tie-break
    promises: tuple[KeptPromise, ...] = ()


def promises_total(promises: Sequence[KeptPromise]) -> int:
    return sum(promise_votes(p.value, p.fulfilled) for p in promises)


def is_eliminated(pollution: int) -> bool:
    return pollution >= ELIMINATION_LEVEL


def tie_keys(pollution: Sequence[int], money: Sequence[int]) -> list[TieKey]:
    return [TieKey("pollution", pollution, higher_wins=False, label="lowest pollution"),
            TieKey("money", money, higher_wins=True, label="most money")]


def final_sheet(cities: Sequence[FinalCity]) -> ScoreSheet:
    """Score sheet in input order.

    Eliminated players keep their category figures for the table but have total None
    (they are out of the game, so they have no final score) and rank None.
    """
    rows: list[tuple[dict[str, int], int | None, bool]] = []
    for c in cities:
        cats = {"votes": c.votes, "promises": promises_total(c.promises),
                "pollution": -c.pollution}
        out = is_eliminated(c.pollution)
        rows.append((cats, None if out else sum(cats.values()), out))

    ranking = break_ties([c.name for c in cities], [total for _, total, _ in rows],
                         tie_keys([c.pollution for c in cities], [c.money for c in cities]))
    players = [
        PlayerResult(name=c.name, categories=cats, total=total, rank=ranking.ranks[i],
                     eliminated=out, tiebreak=ranking.notes[i])
        for i, (c, (cats, total, out)) in enumerate(zip(cities, rows, strict=True))
    ]
    return ScoreSheet(game=GAME_ID, players=players, winners=ranking.winners)
