"""Statistics from GameRecords only (never a game file): per player and per game.

Players are matched by their normalised name through the user's merge map (names.py).
A solo game counts as a play, but not towards wins and win rate (nobody else is scored:
Karla has no points), which are over multiplayer games; its score counts towards the
averages and the best score. Solo Village games also give the achievements reached and,
per Karla variant ("standard", "d4", or "unknown" for games saved before it was
recorded), the score over time.

Scores of different games are on different scales: pass the records of one game
(`compute_stats(records, game="village")`) for meaningful averages.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date

from pydantic import BaseModel

from companion.history.names import NameMatcher
from companion.history.query import newest_first_key
from companion.history.records import GameRecord

UNKNOWN_VARIANT = "unknown"


class SoloStats(BaseModel):
    plays: int
    achievements: dict[str, int]  # achievement -> solo games that ended with it
    best_score: int | None
    # Karla variant -> [(date, score)], oldest first: the trend against Karla.
    trend_by_variant: dict[str, list[tuple[date, int]]]


class PlayerStats(BaseModel):
    key: str  # the normalised (merged) name
    name: str  # how to show it: the merge target as typed, else the latest spelling
    plays: int
    multiplayer_plays: int
    wins: int  # multiplayer games won (shared wins count)
    win_rate: float | None  # wins / multiplayer plays; None without multiplayer plays
    average_score: float | None
    best_score: int | None
    average_by_category: dict[str, float]
    scores_over_time: list[tuple[date, int]]  # oldest first
    solo: SoloStats | None = None  # Village solo games, if any


class GameStats(BaseModel):
    game: str
    plays: int
    average_winning_score: float | None  # multiplayer games with a known winning score
    player_counts: dict[int, int]  # players at the table -> games (solo: 1)


class Statistics(BaseModel):
    records: int
    players: list[PlayerStats]  # most plays first, then by name
    games: list[GameStats]  # most plays first


@dataclass
class _Acc:
    name: str = ""
    name_date: tuple[str, ...] = ()
    plays: int = 0
    multi: int = 0
    wins: int = 0
    score_sum: int = 0
    scored: int = 0
    best: int | None = None
    cat_sum: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    cat_n: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    over_time: list[tuple[tuple[str, ...], date, int]] = field(default_factory=list)
    solo: int = 0
    solo_best: int | None = None
    achievements: Counter[str] = field(default_factory=Counter)
    trend: dict[str, list[tuple[tuple[str, ...], date, int]]] = field(
        default_factory=lambda: defaultdict(list))


def _mean(total: float, count: int) -> float | None:
    return round(total / count, 2) if count else None


def compute_stats(records: Iterable[GameRecord], merges: Mapping[str, str] | None = None,
                  *, game: str | None = None) -> Statistics:
    """Statistics of `records` (of `game` only, when given)."""
    matcher = NameMatcher(merges)
    accs: dict[str, _Acc] = defaultdict(_Acc)
    per_game: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # plays, win sum, n
    counts: dict[str, Counter[int]] = defaultdict(Counter)
    total = 0
    for rec in records:
        if game is not None and rec.game != game:
            continue
        total += 1
        order = newest_first_key(rec)
        g = per_game[rec.game]
        g[0] += 1
        counts[rec.game][1 if rec.solo else len(rec.players)] += 1
        if not rec.solo:
            winning = [p.score for p in rec.players if p.winner and p.score is not None]
            if winning:
                g[1] += max(winning)
                g[2] += 1
        for p in rec.players:
            acc = accs[matcher.key(p.name)]
            if order >= acc.name_date:
                acc.name, acc.name_date = p.name, order
            acc.plays += 1
            if rec.solo:
                acc.solo += 1
            else:
                acc.multi += 1
                acc.wins += p.winner
            score = p.score
            if score is not None:
                acc.score_sum += score
                acc.scored += 1
                if acc.best is None or score > acc.best:
                    acc.best = score
                acc.over_time.append((order, rec.date, score))
                if rec.solo:
                    if acc.solo_best is None or score > acc.solo_best:
                        acc.solo_best = score
                    acc.trend[rec.karla_variant or UNKNOWN_VARIANT].append(
                        (order, rec.date, score))
            if rec.solo and rec.achievement:
                acc.achievements[rec.achievement] += 1
            if p.categories:
                for cat, pts in p.categories.items():
                    acc.cat_sum[cat] += pts
                    acc.cat_n[cat] += 1
    players = []
    for key, acc in accs.items():
        solo = None
        if acc.solo:
            solo = SoloStats.model_construct(
                plays=acc.solo, achievements=dict(acc.achievements), best_score=acc.solo_best,
                trend_by_variant={v: [(d, s) for _, d, s in sorted(points)]
                                  for v, points in sorted(acc.trend.items())})
        players.append(PlayerStats.model_construct(
            key=key, name=matcher.preferred.get(key, acc.name), plays=acc.plays,
            multiplayer_plays=acc.multi, wins=acc.wins,
            win_rate=round(acc.wins / acc.multi, 4) if acc.multi else None,
            average_score=_mean(acc.score_sum, acc.scored), best_score=acc.best,
            average_by_category={c: round(acc.cat_sum[c] / n, 2)
                                 for c, n in acc.cat_n.items()},
            scores_over_time=[(d, s) for _, d, s in sorted(acc.over_time)],
            solo=solo))
    players.sort(key=lambda s: (-s.plays, s.key))
    games = [GameStats.model_construct(game=name, plays=g[0],
                                       average_winning_score=_mean(g[1], g[2]),
                                       player_counts=dict(sorted(counts[name].items())))
             for name, g in per_game.items()]
    games.sort(key=lambda s: (-s.plays, s.game))
    return Statistics.model_construct(records=total, players=players, games=games)


def player_stats(stats: Statistics, name: str,
                 merges: Mapping[str, str] | None = None) -> PlayerStats | None:
    """One player's statistics, found by any name that counts as them."""
    key = NameMatcher(merges).key(name)
    return next((p for p in stats.players if p.key == key), None)
