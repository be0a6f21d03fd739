"""Statistics from GameRecords only (never a game file): per player, head to head, per
game and edition, and against Karla.

Players are matched by their normalised name through the user's merge map (names.py).
Every play's result is the one companion.history.results defines, the same the score
sheet, History and BG Stats show: a solo game is a play won or lost against Karla, like
any other. So for every player plays = wins + losses + ties + unknown (the last: a
record too old to say), over the same games, and the win rate is wins over the decided
plays (wins + losses + ties). Scores count towards the average and the best score
whenever they are known, solo included.

Streaks run over the player's decided plays, oldest first: the longest run of wins, and
the current run (of wins, losses or ties) up to the newest play. Head to head compares
two players over the multiplayer games both played (results.compare). Against Karla,
solo Village games are grouped by the player, Karla's cube variant ("standard", "d4",
"unknown" for games saved before it was recorded) and who chose her cubes ("ask": the
players, "auto": the app; "unknown" likewise).

Scores of different games are on different scales: pass the records of one game
(`compute_stats(records, game="village")`) for meaningful averages.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from itertools import combinations

from pydantic import BaseModel

from companion.history.names import NameMatcher
from companion.history.query import newest_first_key
from companion.history.records import GameRecord, PlayerResult
from companion.history.results import DECIDED, Outcome, compare, solo_outcome

#: Where each outcome is counted in _Acc.results / solo_results.
_SLOT = {Outcome.WON: 0, Outcome.LOST: 1, Outcome.TIED: 2, Outcome.UNKNOWN: 3}
UNKNOWN_VARIANT = "unknown"
UNKNOWN_POLICY = "unknown"


class KarlaStats(BaseModel):
    """One player's solo games against Karla with one variant and one policy."""

    variant: str
    policy: str
    plays: int
    wins: int
    losses: int
    unknown: int
    win_rate: float | None
    best_score: int | None
    average_score: float | None


class SoloStats(BaseModel):
    plays: int
    wins: int  # won against Karla (results.solo_outcome)
    losses: int
    unknown: int
    achievements: dict[str, int]  # achievement -> solo games that ended with it
    best_score: int | None
    # Karla variant -> [(date, score)], oldest first: the trend against Karla.
    trend_by_variant: dict[str, list[tuple[date, int]]]
    against_karla: list[KarlaStats]  # by variant, then policy


class Streak(BaseModel):
    outcome: str  # Outcome value: "won", "lost" or "tied"
    length: int


class PlayerStats(BaseModel):
    key: str  # the normalised (merged) name
    name: str  # how to show it: the merge target as typed, else the latest spelling
    plays: int  # every finished game played, solo included
    multiplayer_plays: int
    wins: int  # won alone, or against Karla
    losses: int
    ties: int  # first place shared
    unknown: int  # plays whose result the record cannot tell
    win_rate: float | None  # wins / (wins + losses + ties); None without decided plays
    average_score: float | None
    best_score: int | None
    average_by_category: dict[str, float]
    best_by_category: dict[str, int]
    scores_over_time: list[tuple[date, int]]  # oldest first
    longest_win_streak: int
    current_streak: Streak | None  # None: no decided play
    solo: SoloStats | None = None  # Village solo games, if any

    @property
    def decided(self) -> int:
        return self.wins + self.losses + self.ties


class HeadToHead(BaseModel):
    """Two players (by key, `a` < `b`) over the multiplayer games both played."""

    a: str
    b: str
    a_name: str
    b_name: str
    games: int
    a_ahead: int
    b_ahead: int
    level: int
    unknown: int


class GameStats(BaseModel):
    game: str
    edition: str | None = None  # None: every edition (per_game), or an unknown one
    plays: int
    average_winning_score: float | None  # multiplayer games with a known winning score
    player_counts: dict[int, int]  # players at the table -> games (solo: 1)
    average_duration_min: float | None = None


class Statistics(BaseModel):
    records: int
    players: list[PlayerStats]  # most plays first, then by name
    games: list[GameStats]  # per game, most plays first
    editions: list[GameStats] = []  # per game and edition, most plays first
    head_to_head: list[HeadToHead] = []  # every pair that met, most games first


@dataclass
class _Karla:
    plays: int = 0
    wins: int = 0
    losses: int = 0
    unknown: int = 0
    score_sum: int = 0
    scored: int = 0
    best: int | None = None


@dataclass
class _Acc:
    name: str = ""
    name_date: tuple[str, ...] = ()
    plays: int = 0
    multi: int = 0
    # Plays by outcome, counted at _SLOT[outcome] (a list: hashing an enum member runs
    # Python code, twice per play with a Counter).
    results: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    score_sum: int = 0
    scored: int = 0
    best: int | None = None
    cat_sum: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    cat_n: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    cat_best: dict[str, int] = field(default_factory=dict)
    over_time: list[tuple[tuple[str, ...], date, int]] = field(default_factory=list)
    sequence: list[tuple[tuple[str, ...], Outcome]] = field(default_factory=list)
    solo: int = 0
    solo_results: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    solo_best: int | None = None
    achievements: Counter[str] = field(default_factory=Counter)
    trend: dict[str, list[tuple[tuple[str, ...], date, int]]] = field(
        default_factory=lambda: defaultdict(list))
    karla: dict[tuple[str, str], _Karla] = field(default_factory=lambda: defaultdict(_Karla))


@dataclass
class _Game:
    plays: int = 0
    win_sum: int = 0
    win_n: int = 0
    minutes: int = 0
    timed: int = 0
    counts: Counter[int] = field(default_factory=Counter)

    def add(self, seats: int, winning: int | None, minutes: int | None) -> None:
        """One play: `seats` (1 for a solo game), the best winner's score (multiplayer,
        when known) and its length (when known)."""
        self.plays += 1
        self.counts[seats] += 1
        if winning is not None:
            self.win_sum += winning
            self.win_n += 1
        if minutes is not None:
            self.minutes += minutes
            self.timed += 1

    def stats(self, game: str, edition: str | None) -> GameStats:
        return GameStats.model_construct(
            game=game, edition=edition, plays=self.plays,
            average_winning_score=_mean(self.win_sum, self.win_n),
            player_counts=dict(sorted(self.counts.items())),
            average_duration_min=_mean(self.minutes, self.timed))


@dataclass
class _Pair:
    games: int = 0
    a_ahead: int = 0
    b_ahead: int = 0
    level: int = 0
    unknown: int = 0


def _mean(total: float, count: int) -> float | None:
    return round(total / count, 2) if count else None


def _rate(wins: int, decided: int) -> float | None:
    return round(wins / decided, 4) if decided else None


def _higher(best: int | None, value: int) -> int:
    return value if best is None or value > best else best


def _streaks(sequence: list[tuple[tuple[str, ...], Outcome]]) -> tuple[int, Streak | None]:
    longest = run = length = 0
    current: Outcome | None = None
    for _, result in sorted(sequence):
        if result not in DECIDED:
            continue
        if result is current:
            length += 1
        else:
            current, length = result, 1
        run = run + 1 if result is Outcome.WON else 0
        if run > longest:
            longest = run
    if current is None:
        return longest, None
    return longest, Streak.model_construct(outcome=current.value, length=length)


def compute_stats(records: Iterable[GameRecord], merges: Mapping[str, str] | None = None,
                  *, game: str | None = None,
                  keys: Iterable[tuple[str, str, str, str]] | None = None) -> Statistics:
    """Statistics of `records` (of `game` only, when given). `keys`: each record's
    newest_first_key, in the records' order, when the caller has them (the history
    cache keeps them: a tenth of the statistics' time at 10,000 games)."""
    matcher = NameMatcher(merges)
    accs: dict[str, _Acc] = defaultdict(_Acc)
    per_game: dict[str, _Game] = defaultdict(_Game)
    per_edition: dict[tuple[str, str], _Game] = defaultdict(_Game)
    pairs: dict[tuple[str, str], _Pair] = defaultdict(_Pair)
    total = 0
    orders = iter(keys) if keys is not None else None
    for rec in records:
        order = next(orders) if orders is not None else None
        if game is not None and rec.game != game:
            continue
        total += 1
        if order is None:
            order = newest_first_key(rec)
        seated = rec.players
        is_solo = rec.solo
        day = rec.date
        keyed: dict[str, PlayerResult] = {}
        # Every player's outcome as results.outcome gives it, with the winners counted
        # once per game (not once per player).
        winning: int | None = None
        if is_solo:
            shared = solo_outcome(rec)
            shared_slot = _SLOT[shared]
        else:
            winners = 0
            for p in seated:
                if p.winner:
                    winners += 1
                    if p.score is not None and (winning is None or p.score > winning):
                        winning = p.score
        seats = 1 if is_solo else len(seated)
        per_game[rec.game].add(seats, winning, rec.duration_min)
        per_edition[(rec.game, rec.edition or "")].add(seats, winning, rec.duration_min)
        for p in seated:
            if is_solo:
                result, slot = shared, shared_slot
            elif winners == 0:
                result, slot = Outcome.UNKNOWN, 3
            elif not p.winner:
                result, slot = Outcome.LOST, 1
            elif winners == 1:
                result, slot = Outcome.WON, 0
            else:
                result, slot = Outcome.TIED, 2
            key = matcher.key(p.name)
            keyed.setdefault(key, p)
            acc = accs[key]
            if order >= acc.name_date:
                acc.name, acc.name_date = p.name, order
            acc.plays += 1
            acc.results[slot] += 1
            acc.sequence.append((order, result))
            if is_solo:
                acc.solo += 1
                acc.solo_results[slot] += 1
            else:
                acc.multi += 1
            score = p.score
            if score is not None:
                acc.score_sum += score
                acc.scored += 1
                if acc.best is None or score > acc.best:
                    acc.best = score
                acc.over_time.append((order, day, score))
                if is_solo:
                    acc.solo_best = _higher(acc.solo_best, score)
                    acc.trend[rec.karla_variant or UNKNOWN_VARIANT].append(
                        (order, day, score))
            if is_solo:
                if rec.achievement:
                    acc.achievements[rec.achievement] += 1
                karla = acc.karla[(rec.karla_variant or UNKNOWN_VARIANT,
                                   rec.karla_policy or UNKNOWN_POLICY)]
                karla.plays += 1
                karla.wins += result is Outcome.WON
                karla.losses += result is Outcome.LOST
                karla.unknown += result not in (Outcome.WON, Outcome.LOST)
                if score is not None:
                    karla.score_sum += score
                    karla.scored += 1
                    karla.best = _higher(karla.best, score)
            categories = p.categories
            if categories:
                cat_sum, cat_n, cat_best = acc.cat_sum, acc.cat_n, acc.cat_best
                for cat, pts in categories.items():
                    cat_sum[cat] += pts
                    cat_n[cat] += 1
                    best = cat_best.get(cat)
                    if best is None or pts > best:
                        cat_best[cat] = pts
        if not is_solo:
            for ka, kb in combinations(sorted(keyed), 2):
                pair = pairs[(ka, kb)]
                pair.games += 1
                ahead = compare(keyed[ka], keyed[kb])
                if ahead is None:
                    pair.unknown += 1
                elif ahead > 0:
                    pair.a_ahead += 1
                elif ahead < 0:
                    pair.b_ahead += 1
                else:
                    pair.level += 1
    names = {key: matcher.preferred.get(key, acc.name) for key, acc in accs.items()}
    players = []
    for key, acc in accs.items():
        solo = None
        if acc.solo:
            won, lost = acc.solo_results[0], acc.solo_results[1]
            solo = SoloStats.model_construct(
                plays=acc.solo, wins=won, losses=lost, unknown=acc.solo - won - lost,
                achievements=dict(acc.achievements), best_score=acc.solo_best,
                trend_by_variant={v: [(d, s) for _, d, s in sorted(points)]
                                  for v, points in sorted(acc.trend.items())},
                against_karla=[KarlaStats.model_construct(
                    variant=v, policy=pol, plays=k.plays, wins=k.wins, losses=k.losses,
                    unknown=k.unknown, win_rate=_rate(k.wins, k.wins + k.losses),
                    best_score=k.best, average_score=_mean(k.score_sum, k.scored))
                    for (v, pol), k in sorted(acc.karla.items())])
        wins, losses, ties, unknown = acc.results
        longest, current = _streaks(acc.sequence)
        players.append(PlayerStats.model_construct(
            key=key, name=names[key], plays=acc.plays, multiplayer_plays=acc.multi,
            wins=wins, losses=losses, ties=ties, unknown=unknown,
            win_rate=_rate(wins, wins + losses + ties),
            average_score=_mean(acc.score_sum, acc.scored), best_score=acc.best,
            average_by_category={c: round(acc.cat_sum[c] / n, 2)
                                 for c, n in acc.cat_n.items()},
            best_by_category=dict(acc.cat_best),
            scores_over_time=[(d, s) for _, d, s in sorted(acc.over_time)],
            longest_win_streak=longest, current_streak=current, solo=solo))
    players.sort(key=lambda s: (-s.plays, s.key))
    games = [g.stats(name, None) for name, g in per_game.items()]
    games.sort(key=lambda s: (-s.plays, s.game))
    editions = [g.stats(name, edition or None) for (name, edition), g in per_edition.items()]
    editions.sort(key=lambda s: (-s.plays, s.game, s.edition or ""))
    h2h = [HeadToHead.model_construct(
        a=a, b=b, a_name=names[a], b_name=names[b], games=p.games, a_ahead=p.a_ahead,
        b_ahead=p.b_ahead, level=p.level, unknown=p.unknown)
        for (a, b), p in pairs.items()]
    h2h.sort(key=lambda h: (-h.games, h.a, h.b))
    return Statistics.model_construct(records=total, players=players, games=games,
                                      editions=editions, head_to_head=h2h)


def player_stats(stats: Statistics, name: str,
                 merges: Mapping[str, str] | None = None) -> PlayerStats | None:
    """One player's statistics, found by any name that counts as them."""
    key = NameMatcher(merges).key(name)
    return next((p for p in stats.players if p.key == key), None)


def head_to_head(stats: Statistics, a: str, b: str,
                 merges: Mapping[str, str] | None = None) -> HeadToHead | None:
    """Two players' record against each other, seen from `a` (None: never met)."""
    matcher = NameMatcher(merges)
    ka, kb = matcher.key(a), matcher.key(b)
    for h in stats.head_to_head:
        if (h.a, h.b) == (ka, kb):
            return h
        if (h.a, h.b) == (kb, ka):
            return HeadToHead.model_construct(
                a=h.b, b=h.a, a_name=h.b_name, b_name=h.a_name, games=h.games,
                a_ahead=h.b_ahead, b_ahead=h.a_ahead, level=h.level, unknown=h.unknown)
    return None
