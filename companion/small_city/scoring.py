"""`score_payload` for Small City score files.

    {"game": "small-city", "players": [{"name": "Ann", "votes": 58, "pollution": 22,
      "money": 5, "promises": [{"value": 12, "fulfilled": true}]}]}

Categories: votes, promises (+6/+12/+18 fulfilled, -3/-6/-12 failed), pollution (as a
negative number).  A player with pollution 100 or more is out: eliminated, total None,
rank None, never a winner.  See companion.small_city.final for the rules.
"""

from __future__ import annotations

from typing import Any, Literal

from companion.scoring.contract import ScoreSheet
from companion.scoring.inputs import Count, StrictModel, parse_players_payload
from companion.small_city.data import MAX_PLAYERS, MIN_PLAYERS, PROMISE_VALUES
from companion.small_city.final import FinalCity, KeptPromise, final_sheet


class PromiseIn(StrictModel):
    value: Count
    fulfilled: bool


class PlayerIn(StrictModel):
    name: str
    votes: Count
    pollution: Count
    money: Count
    promises: list[PromiseIn] = []


class SmallCityIn(StrictModel):
    game: Literal["small-city"]
    players: list[PlayerIn]


def _player_problems(at: str, player: PlayerIn) -> list[str]:
    problems: list[str] = []
    allowed = ", ".join(str(v) for v in PROMISE_VALUES)
    for j, promise in enumerate(player.promises):
        # A promise's value is its pile (seed L8): anything else is a typo.
        if promise.value not in PROMISE_VALUES:
            problems.append(f"{at}.promises[{j}].value: must be one of {allowed}, "
                            f"not {promise.value}")
    return problems


def score_payload(payload: dict[str, Any]) -> ScoreSheet:
    parsed = parse_players_payload(SmallCityIn, PlayerIn, payload, minimum=MIN_PLAYERS,
                                   maximum=MAX_PLAYERS, player_checks=_player_problems)
    return final_sheet([
        FinalCity(
            name=p.name, votes=p.votes, pollution=p.pollution, money=p.money,
            promises=tuple(KeptPromise(value=k.value, fulfilled=k.fulfilled)
                           for k in p.promises),
        )
        for p in parsed.players
    ])
