"""One definition of a game's result, for every game: the score sheet's summary line,
History, the statistics and the BG Stats link all read it from here.

Every player of a finished game has one outcome:

- a multiplayer game: WON (the only winner), TIED (one of several winners: first place
  shared after the tie-breaks), LOST (not a winner), or UNKNOWN when the record names
  no winner at all (a summary too old or damaged to say);
- a Village solo game is won or lost against Karla by the achievement reached
  (companion.village.scoring.solo_won, where the rule and the rulebook's words are):
  WON from 旅人 (traveller) up, LOST on 學徒 (apprentice); UNKNOWN when the record has no
  achievement it knows. Karla scores no points, so she has no score to show;
- a one-player game of another game (none ships one yet) reads like a multiplayer game.

Statistics count each play once in exactly one of wins, losses, ties or unknown, so
plays = wins + losses + ties + unknown for every player, and the win rate is wins over
the decided plays (wins + losses + ties), solo and multiplayer alike.

Pure: no store, no UI."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from functools import cache

from companion.history.records import VILLAGE_GAMES, GameRecord, PlayerResult
from companion.village.components import ComponentData, load_components
from companion.village.scoring import solo_won


class Outcome(StrEnum):
    WON = "won"
    LOST = "lost"
    TIED = "tied"
    UNKNOWN = "unknown"


DECIDED = (Outcome.WON, Outcome.LOST, Outcome.TIED)


@cache
def _solo_components() -> ComponentData:
    return load_components("big-box")  # the solo mode is Big Box only


def solo_outcome(record: GameRecord) -> Outcome:
    """A solo game against Karla: won or lost by its achievement (UNKNOWN: none known)."""
    if record.game in VILLAGE_GAMES:
        won = solo_won(_solo_components(), record.achievement)
        if won is None:
            return Outcome.UNKNOWN
        return Outcome.WON if won else Outcome.LOST
    return _by_winners(record, record.players[0]) if record.players else Outcome.UNKNOWN


def _by_winners(record: GameRecord, player: PlayerResult) -> Outcome:
    winners = sum(1 for p in record.players if p.winner)
    if winners == 0:
        return Outcome.UNKNOWN
    if not player.winner:
        return Outcome.LOST
    return Outcome.WON if winners == 1 else Outcome.TIED


def outcome(record: GameRecord, player: PlayerResult) -> Outcome:
    """The outcome of one of the record's players."""
    if record.solo:
        return solo_outcome(record)
    return _by_winners(record, player)


def outcomes(record: GameRecord) -> dict[str, Outcome]:
    """Every player's outcome, by name, in the record's order."""
    return {p.name: outcome(record, p) for p in record.players}


def is_winner(record: GameRecord, player: PlayerResult) -> bool:
    """Did the player win (alone or sharing first place)? BG Stats' `winner` flag."""
    return outcome(record, player) in (Outcome.WON, Outcome.TIED)


def winner_names(record: GameRecord) -> list[str]:
    """Who won: one name, several for a shared first place, none for a solo game lost
    to Karla or a result not known."""
    return [p.name for p in record.players if is_winner(record, p)]


def ahead(record: GameRecord, a: str, b: str) -> int | None:
    """Head to head in one multiplayer game, by the players' names: see `compare`."""
    if record.solo:
        return None
    by_name: Mapping[str, PlayerResult] = {p.name: p for p in record.players}
    pa, pb = by_name.get(a), by_name.get(b)
    return None if pa is None or pb is None else compare(pa, pb)


def compare(pa: PlayerResult, pb: PlayerResult) -> int | None:
    """1 if `pa` finished ahead of `pb` in their (multiplayer) game, -1 if behind, 0 if
    level; None if the record cannot tell. By rank, else by who won, else by score; a
    player out of the game (Small City) is behind one who is not."""
    if pa.eliminated != pb.eliminated:
        return -1 if pa.eliminated else 1
    if pa.rank is not None and pb.rank is not None:
        return (pa.rank < pb.rank) - (pa.rank > pb.rank)
    if pa.winner != pb.winner:
        return 1 if pa.winner else -1
    if pa.score is not None and pb.score is not None:
        return (pa.score > pb.score) - (pa.score < pb.score)
    return None
