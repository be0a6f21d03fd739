"""The BG Stats "createPlay" link of a finished game.

BG Stats (bgstatsapp.com) takes a play as url-encoded JSON on a link; opening it shows the
play in BG Stats' own import dialog, so nothing is recorded unseen::

    https://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>

The JSON shape: BG Stats documents it on its support page "Push plays to BG Stats from
other apps or websites", which was not reachable from here. The fields below are the
ones issue 14 lists, with the shape used by several published integrations that cite that
page: required `sourceName`, `sourcePlayId` and `playDate` (UTC, "yyyy-MM-dd HH:mm:ss");
`durationMin`; `game` {name, sourceGameId}; `players` [{name, sourcePlayerId, score,
rank, winner, startPlayer}]. Nothing else is sent (no bggId: the ids were not checked).
`winner` is always present (one integration reports BG Stats' Android app failing without
it); `score`, `rank` and `startPlayer` only when known. Ids are stable, because BG Stats
remembers how the user matched them: the game's id ("village"), the player's normalised
name (through the merge map), and the stored game's id for the play.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime, time
from typing import Any
from urllib.parse import quote

from companion.history.names import NameMatcher
from companion.history.records import GameRecord

CREATE_PLAY_URL = "https://app.bgstatsapp.com/createPlay.html"
SOURCE_NAME = "Village Companion"
GAME_NAMES = {"village": "Village", "small-city": "Small City", "feudum": "Feudum",
              "villagers": "Villagers"}
# With only the day known, noon UTC is that same calendar day from UTC-11 to UTC+11.
_DAY_ONLY_TIME = time(12, 0)


def play_date(record: GameRecord) -> str:
    """When it was played, in UTC as BG Stats wants it: the end, else the start, else
    noon of the day."""
    moment = record.ended_at or record.started_at
    if moment is None:
        moment = datetime.combine(record.date, _DAY_ONLY_TIME, tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S")


def play_data(record: GameRecord, merges: Mapping[str, str] | None = None
              ) -> dict[str, Any]:
    """The createPlay JSON of a finished game's record."""
    matcher = NameMatcher(merges)
    players = []
    for p in record.players:
        player: dict[str, Any] = {"name": p.name, "sourcePlayerId": matcher.key(p.name)}
        if p.score is not None:
            player["score"] = p.score
        if p.rank is not None:
            player["rank"] = p.rank
        player["winner"] = p.winner
        if record.start_player is not None:
            player["startPlayer"] = p.name == record.start_player
        players.append(player)
    data: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": record.id,
        "playDate": play_date(record),
    }
    if record.duration_min is not None:
        data["durationMin"] = record.duration_min
    data["game"] = {"name": GAME_NAMES.get(record.game, record.game),
                    "sourceGameId": record.game}
    data["players"] = players
    return data


def create_play_link(record: GameRecord, merges: Mapping[str, str] | None = None) -> str:
    """https://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>"""
    payload = json_text(play_data(record, merges))
    return f"{CREATE_PLAY_URL}?data={quote(payload, safe='')}"


def json_text(data: Mapping[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
