"""One GameRecord per finished game, of any game, built from what the store lists.

A record is read from a SessionInfo alone (id, game, title, dates and the `summary` the
game's service wrote), never from the game file, so 10,000 games cost one listing. Summaries
differ by game and by the app version that wrote them: every field that is missing or not
understood is None ("unknown"); a summary that cannot be read at all is skipped and counted
(`RecordSet.skipped`), never raised.

What the summaries hold (see companion/village/service.py `_summary` and
companion/tally/service.py `session_summary`):

- every game: players (names, in seat order; a Village solo game lists Karla too), date
  (ISO day, UTC), and once finished scores {name: total} and winners [names]; a player
  out of the game (Small City) scores "—";
- Village also: solo, achievement (solo), and since issue 14 edition, started_at,
  ended_at, ranks, categories {name: {category: points}}, start_player, karla_variant;
  since issue 22 colours {name: colour}, karla_colour and karla_policy;
- the scoring assistants since issue 22: started_at (their first entry) and ended_at.

(The store's `created_at` is no start time: an imported game is created anew.)

A solo game's listed players who were never scored are its `opponent` (Village: Karla,
who plays but does not score): the rows show "Ann vs. Karla".

Village games saved before the summary had an edition: the edition is inferred where the
summary alone settles it, as the setup refuses everything else (companion/village/setup.py
`component_problems`, since the first stored game): a solo game, or a game of five, is
Big Box (the 2011 edition has no solo mode and plays 2-4). A game of 2-4 players stays
unknown: only its header (setup.edition) says which, and records are built from the
listing, never from the game files.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from datetime import UTC, date, datetime
from typing import Any, NamedTuple, TypeVar

from pydantic import BaseModel, ConfigDict

from companion import games
from companion.store.base import SessionInfo

#: Shown for a player who left the game (Small City pollution); kept as "no score".
OUT_SCORE = "—"
VILLAGE_GAMES = games.all_ids(games.VILLAGE)  # its id and the ids older sessions carry
#: Village's solo opponent, as the engine names her (companion/village/setup.py).
KARLA = "Karla"
BIG_BOX = "big-box"
BIG_BOX_ONLY_PLAYERS = 5  # the 2011 edition plays 2-4


class PlayerResult(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    score: int | None = None  # None: unknown, or out of the game (eliminated)
    rank: int | None = None  # 1 = first; ties share a rank
    winner: bool = False
    eliminated: bool = False
    categories: dict[str, int] | None = None  # None: not recorded by this game/version


class GameRecord(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    game: str  # the registry's id (companion/games), also for a legacy id
    title: str = ""
    date: date  # the day it was played (UTC), from the summary or else the store
    started_at: datetime | None = None
    ended_at: datetime | None = None
    duration_min: int | None = None
    edition: str | None = None
    solo: bool = False
    players: list[PlayerResult]
    start_player: str | None = None
    achievement: str | None = None  # Village solo
    karla_variant: str | None = None  # Village solo: "standard" or "d4"
    karla_policy: str | None = None  # Village solo: "ask" or "auto" (who picks her cube)
    karla_colour: str | None = None  # Village solo
    colours: dict[str, str] | None = None  # player -> colour, where the game has them
    opponent: str | None = None  # solo: who played against the player unscored (Karla)
    updated_at: str = ""

    @property
    def player_count(self) -> int:
        return len(self.players)

    @property
    def winners(self) -> list[PlayerResult]:
        return [p for p in self.players if p.winner]


M = TypeVar("M", bound=BaseModel)
_new = object.__new__
_set = object.__setattr__


def built(cls: type[M], values: dict[str, Any]) -> M:
    """A frozen model from values already checked, every field given: what
    `model_construct` makes, without its per-field loop (issue 23: 41,000 models at
    10,000 games, a third of building the records). tests/history/test_records.py
    holds it equal to model_construct."""
    obj = _new(cls)
    _set(obj, "__dict__", values)
    _set(obj, "__pydantic_fields_set__", set(values))
    _set(obj, "__pydantic_extra__", None)
    _set(obj, "__pydantic_private__", None)
    return obj


class RecordSet(BaseModel):
    """The records of every finished game, and how many summaries could not be read."""

    records: list[GameRecord]
    skipped: int = 0
    skipped_ids: list[str] = []


class UnreadableSummary(ValueError):
    """The summary of a finished game has nothing a record can be built from."""


# --------------------------------------------------------------------------- parsing


def _text(value: object) -> str | None:
    if isinstance(value, str):
        value = value.strip()
        return value or None
    return None


def _int(value: object) -> int | None:
    """A whole number from an int, an integral float or digits; else None."""
    if type(value) is int:
        return value
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        text = value.strip()
        if text.lstrip("+-").isdigit() and len(text) < 20:
            return int(text)
    return None


def _moment(value: object) -> datetime | None:
    if not isinstance(value, str) or not value:
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _day(value: object) -> date | None:
    if isinstance(value, str) and len(value) >= 10:
        try:
            return date.fromisoformat(value[:10])
        except ValueError:
            return None
    return None


def _player_name(entry: object) -> str | None:
    if isinstance(entry, Mapping):
        return _text(entry.get("name"))
    return _text(entry) if isinstance(entry, str) else None


def _names(raw: object) -> list[str]:
    if isinstance(raw, str):
        raw = [raw]
    if not isinstance(raw, list | tuple):
        return []
    return [n for n in (_player_name(e) for e in raw) if n]


def _score_of(value: object) -> tuple[int | None, bool]:
    """(score, eliminated)"""
    if value == OUT_SCORE:
        return None, True
    return _int(value), False


def _categories(raw: object) -> dict[str, int] | None:
    if type(raw) is not dict and not isinstance(raw, Mapping):
        return None
    if not raw:
        return None
    # Every key a str and every value an int (exactly: a bool is no score), checked in
    # two passes in C instead of a generator (a fifth of building 10,000 records).
    if set(map(type, raw.values())) == _INT_ONLY and set(map(type, raw)) == _STR_ONLY:
        return dict(raw)
    cats = {str(k): v for k, v in ((k, _int(v)) for k, v in raw.items()) if v is not None}
    return cats or None


_INT_ONLY = {int}
_STR_ONLY = {str}


def _clean(names: list[Any]) -> bool:
    """Names as written today: strings with no blanks around them."""
    for name in names:
        if type(name) is not str or not name or name.strip() != name:
            break
    else:
        return True
    return False


def _clean_read(summary: dict[str, Any]) -> tuple[list[str], dict[str, Any]] | None:
    """Whether `_clean_players` reads `summary`: (the players scored, in order; the
    ranks given), or None."""
    raw_players = summary.get("players")
    raw_scores = summary.get("scores")
    raw_winners = summary.get("winners")
    if type(raw_players) is not list or type(raw_scores) is not dict \
            or type(raw_winners) is not list \
            or not _clean(raw_players) or not _clean(raw_winners):
        return None
    if not raw_scores or set(map(type, raw_scores.values())) != _INT_ONLY:
        return None  # no scores, or one that is no int (a player out of the game: "—")
    # Who was scored is who played (a Village solo game lists Karla, never scored): every
    # score's name listed once, so these are the general reading's names, in order.
    scored = [name for name in raw_players if name in raw_scores]
    if len(scored) != len(raw_scores) or len(set(raw_players)) != len(raw_players):
        return None
    raw_ranks = summary.get("ranks")
    if raw_ranks is None:
        return scored, {}
    if type(raw_ranks) is dict and (not raw_ranks or (
            set(map(type, raw_ranks.values())) == _INT_ONLY
            and set(map(type, raw_ranks)) == _STR_ONLY)):
        return scored, raw_ranks
    return None


def _clean_build(summary: dict[str, Any], scored: list[str], ranks: dict[str, Any]
                 ) -> list[PlayerResult]:
    raw_scores = summary["scores"]
    raw_cats = summary.get("categories")
    cats = raw_cats if isinstance(raw_cats, Mapping) else {}
    winners = set(summary["winners"])
    results = []
    for name in scored:
        score = raw_scores[name]
        rank = ranks.get(name)
        if rank is None:  # winners first, then by score (every player has one)
            won = name in winners
            rank = 1 + sum(1 for other in scored if other != name and (
                other in winners if (other in winners) != won
                else raw_scores[other] > score))
        elif rank < 1:
            rank = None
        raw = cats.get(name)
        results.append(built(PlayerResult, {
            "name": name, "score": score, "rank": rank, "winner": name in winners,
            "eliminated": False,
            "categories": None if raw is None else _categories(raw)}))
    return results


def _clean_players(summary: dict[str, Any]) -> list[PlayerResult] | None:
    """`_players` of a summary as the services write it today: players and winners lists
    of clean names (no blanks around them, no name twice), scores {name: int} for the
    listed players, ranks {name: int} or none. None for any other shape (the general
    reading, `_players`, then reads it). Building 10,000 records is mostly reading
    their players: this reading makes the same results with fewer checks
    (tests/history/test_first_look.py holds the two equal)."""
    read = _clean_read(summary)
    return None if read is None else _clean_build(summary, *read)


_UNSCORED = (None, False)


def _players(summary: Mapping[str, Any]) -> list[PlayerResult]:
    if type(summary) is dict:
        clean = _clean_players(summary)
        if clean is not None:
            return clean
    return _read_players(summary)


def _read_players(summary: Mapping[str, Any]) -> list[PlayerResult]:
    """The players of a summary of any shape (the general reading)."""
    raw_players = summary.get("players")
    names = _names(raw_players)
    scores: dict[str, tuple[int | None, bool]] = {}
    raw_scores = summary.get("scores")
    if isinstance(raw_scores, Mapping):
        for name, value in raw_scores.items():
            if isinstance(name, str) and name.strip():
                scores[name.strip()] = _score_of(value)
        # Who was scored is who played (a Village solo game lists Karla, never scored).
        scored = [n for n in names if n in scores]
        names = scored + [n for n in scores if n not in scored]
    elif isinstance(raw_scores, list | tuple) and len(raw_scores) == len(names):
        scores = {n: _score_of(v) for n, v in zip(names, raw_scores, strict=True)}
    elif isinstance(raw_players, list | tuple):  # [{"name", "total"|"score"|"points"}]
        for entry in raw_players:
            if isinstance(entry, Mapping) and (name := _player_name(entry)):
                value = next((entry[k] for k in ("total", "score", "points")
                              if entry.get(k) is not None), None)
                scores[name] = (None, True) if entry.get("eliminated") else _score_of(value)
    unique = list(dict.fromkeys(names))
    if not unique:
        raise UnreadableSummary("no players")

    raw_winners = summary.get("winners", summary.get("winner"))
    winners = set(_names(raw_winners))
    raw_ranks = summary.get("ranks")
    ranks = ({str(k): _int(v) for k, v in raw_ranks.items()}
             if isinstance(raw_ranks, Mapping) else {})
    raw_cats = summary.get("categories")
    cats = raw_cats if isinstance(raw_cats, Mapping) else {}

    def better(a: str, b: str) -> bool:
        """Does `a` finish before `b` (winners first, then by score)?"""
        if (a in winners) != (b in winners):
            return a in winners
        sa, sb = scores.get(a, _UNSCORED)[0], scores.get(b, _UNSCORED)[0]
        return sa is not None and (sb is None or sa > sb)

    can_rank = bool(winners) or any(s is not None for s, _ in scores.values())
    results = []
    for name in unique:
        score, out = scores.get(name, _UNSCORED)
        rank = ranks.get(name)
        if rank is None and can_rank and not out:
            rank = 1 + sum(1 for other in unique if other != name and better(other, name)
                           and not scores.get(other, _UNSCORED)[1])
        results.append(built(PlayerResult, {
            "name": name, "score": score, "rank": rank if rank is None or rank >= 1 else None,
            "winner": name in winners, "eliminated": out,
            "categories": _categories(cats.get(name))}))
    return results


def _colours(raw: object, players: list[PlayerResult]) -> dict[str, str] | None:
    if not isinstance(raw, Mapping):
        return None
    names = {p.name for p in players}
    found = {k: c for k, v in raw.items()
             if isinstance(k, str) and k in names and (c := _text(v)) is not None}
    return found or None


def _dates(info: SessionInfo, summary: Mapping[str, Any]
           ) -> tuple[datetime | None, datetime | None, date]:
    """(started, ended, the day played) of a record; UnreadableSummary: no day."""
    started = _moment(summary.get("started_at"))
    ended = _moment(summary.get("ended_at"))
    day = (_day(summary.get("date")) or (ended.date() if ended else None)
           or _day(info.updated_at) or _day(info.created_at))
    if day is None:
        raise UnreadableSummary("no date")
    return started, ended, day


class Prepared(NamedTuple):
    """What `prepare` read of a game whose record surely builds."""

    key: tuple[str, str, str, str]  # query.newest_first_key of its record
    scored: list[str]
    ranks: dict[str, Any]
    started: datetime | None
    ended: datetime | None
    day: date


def prepare(info: SessionInfo) -> Prepared | None:
    """The newest-first key (query.newest_first_key) of `build_record(info)`, and what
    `build_prepared` builds that record from, when it surely builds one (a summary
    `_clean_players` reads, with a day); None otherwise. Home's first load builds only
    the records it shows (companion/history/cache.py); tests/history/test_first_look.py
    holds the key and the record equal to build_record's."""
    summary = info.summary
    if type(summary) is not dict:
        return None
    read = _clean_read(summary)
    if read is None:
        return None
    try:
        started, ended, day = _dates(info, summary)
    except UnreadableSummary:
        return None
    key = (day.isoformat(), ended.isoformat() if ended else "", info.updated_at, info.id)
    return Prepared(key, read[0], read[1], started, ended, day)


def build_prepared(info: SessionInfo, ready: Prepared) -> GameRecord:
    """build_record(info), from what prepare(info) read."""
    summary = info.summary
    return _record(info, summary, _clean_build(summary, ready.scored, ready.ranks),
                   ready.started, ready.ended, ready.day)


def build_record(info: SessionInfo) -> GameRecord:
    """The record of one finished game; UnreadableSummary (or another ValueError) if its
    summary has nothing to build one from. Use `build_records` to skip those."""
    summary = info.summary
    if type(summary) is not dict and not isinstance(summary, Mapping):
        raise UnreadableSummary("the summary is not an object")
    players = _players(summary)
    return _record(info, summary, players, *_dates(info, summary))


def _record(info: SessionInfo, summary: Mapping[str, Any], players: list[PlayerResult],
            started: datetime | None, ended: datetime | None, day: date) -> GameRecord:
    duration = None
    if started is not None and ended is not None and ended >= started:
        duration = int(round((ended - started).total_seconds() / 60))
    solo = summary.get("solo")
    solo = solo if isinstance(solo, bool) else len(players) == 1
    start_player = _text(summary.get("start_player"))
    village = info.game in VILLAGE_GAMES
    opponent = None
    if solo:
        scored = {p.name for p in players}
        opponent = next((n for n in _names(summary.get("players")) if n not in scored),
                        KARLA if village else None)
    if start_player is not None and all(p.name != start_player for p in players):
        start_player = None
    edition = _text(summary.get("edition"))
    if edition is None and village and (solo or len(players) == BIG_BOX_ONLY_PLAYERS):
        edition = BIG_BOX  # see the module doc: nothing else could have been played
    return built(GameRecord, {
        "id": info.id, "game": games.canonical_id(info.game),  # a legacy id: its game's
        "title": info.title, "date": day, "started_at": started,
        "ended_at": ended, "duration_min": duration, "edition": edition,
        "solo": solo, "players": players,
        "start_player": start_player,
        "achievement": _text(summary.get("achievement")) if solo else None,
        "karla_variant": _text(summary.get("karla_variant")) if solo else None,
        "karla_policy": _text(summary.get("karla_policy")) if solo else None,
        "karla_colour": _text(summary.get("karla_colour")) if solo else None,
        "colours": None if (colours := summary.get("colours")) is None
        else _colours(colours, players),
        "opponent": opponent, "updated_at": info.updated_at})


def build_records(infos: Iterable[SessionInfo]) -> RecordSet:
    """Records of the finished games among `infos`; unreadable summaries are counted."""
    records: list[GameRecord] = []
    skipped: list[str] = []
    for info in infos:
        if not info.finished:
            continue
        try:
            records.append(build_record(info))
        except Exception:  # a strange summary is skipped, never raised
            skipped.append(info.id)
    return RecordSet.model_construct(records=records, skipped=len(skipped),
                                     skipped_ids=skipped)
