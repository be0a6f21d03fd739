"""Turn a finished session's free-form `summary` dict into lines for the history list.

The game engines write the summary; the shell only displays it, so every shape seen in
practice is accepted: a ScoreSheet-like `{"players": [{"name", "total"}], "winners": [...]}`
or `{"players": [names], "scores": {name: n} | [n, ...], "winner(s)": ...}`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from babel.dates import format_date, format_time, get_datetime_format

from companion import games


@dataclass(frozen=True)
class FinishedGame:
    players: list[str]
    scores: list[tuple[str, str]]  # (player, score) in player order
    winners: list[str]


def _player_name(entry: object) -> str | None:
    if isinstance(entry, Mapping):
        name = entry.get("name")
        return str(name) if name is not None else None
    return None if entry is None else str(entry)


def _player_score(entry: object) -> Any:
    if isinstance(entry, Mapping):
        for key in ("total", "score", "points"):
            if entry.get(key) is not None:
                return "—" if entry.get("eliminated") else entry[key]
        if entry.get("eliminated"):
            return "—"
    return None


def summarize(summary: Mapping[str, object]) -> FinishedGame:
    raw_players = summary.get("players") or []
    players_list = list(raw_players) if isinstance(raw_players, list | tuple) else []
    players = [n for n in (_player_name(p) for p in players_list) if n]

    scores: list[tuple[str, str]] = []
    raw_scores = summary.get("scores")
    if isinstance(raw_scores, Mapping):
        scores = [(str(name), str(value)) for name, value in raw_scores.items()]
        if not players:
            players = [name for name, _ in scores]
    elif isinstance(raw_scores, list | tuple) and len(raw_scores) == len(players):
        scores = [(name, str(value)) for name, value in zip(players, raw_scores, strict=True)]
    else:
        for entry in players_list:
            name, score = _player_name(entry), _player_score(entry)
            if name and score is not None:
                scores.append((name, str(score)))

    raw_winners = summary.get("winners", summary.get("winner"))
    if isinstance(raw_winners, str):
        winners = [raw_winners]
    elif isinstance(raw_winners, list | tuple):
        winners = [str(w) for w in raw_winners if w is not None]
    else:
        winners = []
    return FinishedGame(players=players, scores=scores, winners=winners)


def parse_timestamp(iso: str) -> datetime | None:
    try:
        moment = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    except (TypeError, ValueError):
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def local_date(iso: str, babel_locale: str) -> str:
    moment = parse_timestamp(iso)
    if moment is None:
        return iso
    return format_date(moment.astimezone().date(), format="medium", locale=babel_locale)


def local_datetime(iso: str, babel_locale: str) -> str:
    """A moment in the player's locale: the date with its four-digit year, as History
    writes days ("Nov 27, 2026, 8:05 AM", "27.11.2026, 08:05", "2026. 11. 27. 오전
    8:05", "2026年11月27日 上午8:05"); Babel's "short" date has a two-digit year."""
    moment = parse_timestamp(iso)
    if moment is None:
        return iso
    local = moment.astimezone()
    day = format_date(local.date(), format="medium", locale=babel_locale)
    # CLDR puts a narrow no-break space before "AM"/"PM" (U+202F): Roboto has no glyph for
    # it, and the web engine then fetches fallback fonts on every layout. A plain no-break
    # space looks the same and is in every font we ship.
    time = format_time(local, format="short", tzinfo=local.tzinfo,
                       locale=babel_locale).replace("\u202f", "\u00a0")
    pattern = str(get_datetime_format("medium", locale=babel_locale))
    return pattern.replace("'", "").replace("{0}", time).replace("{1}", day)


# Village games (multiplayer and solo) as stored in sessions, legacy ids included.
_VILLAGE_GAMES = games.all_ids(games.VILLAGE)
KARLA_NAME = "Karla"  # her player name as the engine stores it (companion/village/setup.py)


def shown_player(t: Callable[..., str], game: str, summary: Mapping[str, object],
                 name: str) -> str:
    """A player's name as stored, except Karla in a solo Village game: her name in the
    reader's spelling (카를라, 卡拉 …)."""
    if game in _VILLAGE_GAMES and summary.get("solo") and name == KARLA_NAME:
        return t("village.karla")
    return name


def game_title(t: Callable[..., str], game: str, title: str,
               summary: Mapping[str, object]) -> str:
    """A saved game's title in the reader's language, built from its summary (the stored
    title is English and only a fallback for games whose summary names no players):
    "Ann, Bo"; a solo Village game "Solo vs. Karla: Ann" with Karla in the reader's
    spelling (카를라, 卡拉 …)."""
    raw = summary.get("players") if isinstance(summary, Mapping) else None
    players = [n for n in (_player_name(p) for p in raw) if n] if isinstance(
        raw, list | tuple) else []
    if not players:
        return stored_title(t, title)
    if game in _VILLAGE_GAMES and summary.get("solo"):
        humans = [n for n in players if n != KARLA_NAME] or players
        return t("home.game_title.solo", names=", ".join(humans), karla=t("village.karla"))
    return ", ".join(players)


# How the engine titles a solo Village game when it stores it (companion/village/service.py).
STORED_SOLO_PREFIX = "Solo vs Karla: "


def stored_title(t: Callable[..., str], title: str) -> str:
    """A stored title where nothing else is known (a game set aside as damaged): the
    English solo prefix the engine stores is worded in the reader's language."""
    if not title.startswith(STORED_SOLO_PREFIX):
        return title
    names = [n for n in title[len(STORED_SOLO_PREFIX):].split(", ") if n and n != KARLA_NAME]
    return t("home.game_title.solo", names=", ".join(names), karla=t("village.karla"))
