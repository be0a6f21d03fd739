"""The BG Stats "createPlay" link of a finished game.

BG Stats (bgstatsapp.com) takes a play as url-encoded JSON on a link; opening it shows the
play in BG Stats' own import dialog, so nothing is recorded unseen::

    https://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>

The JSON shape: BG Stats documents it on its support page "Push plays to BG Stats from
other apps or websites", which could not be reached from here; the fields below are the
ones published integrations that cite that page send (looked up again for issue 22):

- required `sourceName`, `sourcePlayId`, `playDate` (UTC, "yyyy-MM-dd HH:mm:ss");
- `durationMin`; `comments` (free text);
- `game` {name, sourceGameId, bggId, highestWins, noPoints};
- `players` [{name, sourcePlayerId, score, rank, winner, startPlayer, role}].

What this app sends:

- `playDate` is when the game started (issue 22: not its end; the scoring assistants'
  first entry), `durationMin` from there to the finishing action. An older record with
  only its end has that; noon of the day is left only for a record with no time.
- The game per edition: "Village" (2011) and "Village: Big Box" are two games with their
  own `sourceGameId` ("village-2011", "village-big-box"; "village" when the edition is
  unknown) and, where confirmed, their BoardGameGeek id (the games' registry,
  companion/games, and its `bgg_ids.json` with the provenance: an id marked "estimate" or
  unknown is kept there, never sent). Every game
  the app scores is won by the highest score and has points.
- `winner` is the one result definition (results.py), always present (one integration
  reports BG Stats' Android app failing without it); `score`, `rank`, `startPlayer` only
  when known. A player's colour goes in `role`, BG Stats' free per-player text (no
  colour field was found in the published shape).
- A solo Village game is marked in `comments`: solo against Karla, won or lost, the
  achievement and the points, Karla's colour, cube variant and who chose her cubes; and
  that Karla scores no points (rulebook: 她不會…獲得聲望分數), so she is not a player
  in the play.

Ids are stable, because BG Stats remembers how the user matched them: the game's id per
edition, the player's normalised name (through the merge map), and the stored game's id
for the play. Comments and colour names are in the words of `say`/`term` (the app passes
the player's language; English otherwise).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from datetime import UTC, datetime, time
from typing import Any
from urllib.parse import quote

from companion.core.json_types import JsonObject
from companion.games import BggId, bgg_ids, bgg_key
from companion.history.names import NameMatcher
from companion.history.records import VILLAGE_GAMES, GameRecord
from companion.history.results import Outcome, is_winner, solo_outcome

CREATE_PLAY_URL = "https://app.bgstatsapp.com/createPlay.html"
SOURCE_NAME = "Village Companion"
# With only the day known, noon UTC is that same calendar day from UTC-11 to UTC+11.
_DAY_ONLY_TIME = time(12, 0)

#: (key, **params) -> text, as the app's translator; `term` (kind, value) -> a game
#: term's name ("achievement", "traveller") -> "Traveller".
Say = Callable[..., str]
Term = Callable[[str, str], str]

ENGLISH = {
    "history.bgstats.solo.won": "Solo against Karla: won, {achievement} ({score} points).",
    "history.bgstats.solo.lost": "Solo against Karla: lost, {achievement} ({score} points).",
    "history.bgstats.solo.unknown": "Solo against Karla ({score} points).",
    "history.bgstats.solo.karla": "Karla scores no points (rulebook). Her colour: {colour}; "
                                  "her cubes: {variant}; chosen by: {policy}.",
}
ENGLISH_TERMS = {"variant": {"standard": "standard rule", "d4": "four-sided die"},
                 "policy": {"ask": "the players", "auto": "the app"}}


def english(key: str, **params: object) -> str:
    return ENGLISH[key].format(**params)


def english_term(kind: str, value: str) -> str:
    return ENGLISH_TERMS.get(kind, {}).get(value, value)


def game_key(record: GameRecord) -> str:
    """The game as BG Stats should tell it apart: Village per edition ("village/2011";
    "village" when the edition is unknown), as the registry keys its BoardGameGeek ids."""
    return bgg_key(record.game, record.edition)


def play_date(record: GameRecord) -> str:
    """When it was played, in UTC as BG Stats wants it: the start, else the end, else
    noon of the day."""
    moment = record.started_at or record.ended_at
    if moment is None:
        moment = datetime.combine(record.date, _DAY_ONLY_TIME, tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S")


def _game(record: GameRecord) -> JsonObject:
    key = game_key(record)
    known: BggId | None = bgg_ids().get(key)
    game: JsonObject = {
        "name": known.name if known else record.game,
        "sourceGameId": key.replace("/", "-")}
    if known is not None and known.bgg_id is not None and known.status == "confirmed":
        game["bggId"] = known.bgg_id
    game["highestWins"] = True
    game["noPoints"] = False
    return game


def solo_comment(record: GameRecord, say: Say = english, term: Term = english_term) -> str:
    """The solo game against Karla in words: won or lost, achievement, points, Karla."""
    player = record.players[0] if record.players else None
    score = "?" if player is None or player.score is None else str(player.score)
    result = solo_outcome(record)
    if result is Outcome.UNKNOWN or not record.achievement:
        line = say("history.bgstats.solo.unknown", score=score)
    else:
        line = say(f"history.bgstats.solo.{result.value}", score=score,
                   achievement=term("achievement", record.achievement))
    karla = say("history.bgstats.solo.karla",
                colour=term("colour", record.karla_colour) if record.karla_colour else "?",
                variant=term("variant", record.karla_variant) if record.karla_variant
                else "?",
                policy=term("policy", record.karla_policy) if record.karla_policy else "?")
    return f"{line} {karla}"


def play_data(record: GameRecord, merges: Mapping[str, str] | None = None, *,
              say: Say = english, term: Term = english_term) -> JsonObject:
    """The createPlay JSON of a finished game's record."""
    matcher = NameMatcher(merges)
    colours = record.colours or {}
    players = []
    for p in record.players:
        player: JsonObject = {"name": p.name, "sourcePlayerId": matcher.key(p.name)}
        if p.score is not None:
            player["score"] = p.score
        if p.rank is not None and not record.solo:
            player["rank"] = p.rank
        player["winner"] = is_winner(record, p)
        if record.start_player is not None:
            player["startPlayer"] = p.name == record.start_player
        if p.name in colours:
            player["role"] = term("colour", colours[p.name])
        players.append(player)
    data: JsonObject = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": record.id,
        "playDate": play_date(record),
    }
    if record.duration_min is not None:
        data["durationMin"] = record.duration_min
    data["game"] = _game(record)
    data["players"] = players
    if record.solo and record.game in VILLAGE_GAMES:
        data["comments"] = solo_comment(record, say, term)
    return data


def create_play_link(record: GameRecord, merges: Mapping[str, str] | None = None, *,
                     say: Say = english, term: Term = english_term) -> str:
    """https://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>"""
    payload = json_text(play_data(record, merges, say=say, term=term))
    return f"{CREATE_PLAY_URL}?data={quote(payload, safe='')}"


def json_text(data: Mapping[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
