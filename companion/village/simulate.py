"""`village-companion simulate-karla`: random solo games against Karla, as distributions.

Plays N solo games with the random player (autoplay) and the app's own draws. Game i
uses variant ("standard", "d4")[(seed + i) % 2] and Karla cube policy
("ask", "auto")[((seed + i) // 2) % 2], so any 4 consecutive games cover every pair; its
game seed (setup seed and the random player's seed) is derived from `--seed` and i. The
same `--seed` and `--games` always give the same figures (except the timings).

JSON keys (`--json`; histogram keys are strings because JSON object keys are):

- games, seed: what was asked; finished: games that reached the end of final scoring;
  errors: games that failed (an exception or no end within MAX_STEPS), first_error: its
  message or null; steps: accepted commands over all games.
- variants, policies: how many games used each Karla variant / cube policy.
- rounds: {histogram: {rounds: games}, mean, min, max} - rounds played per game.
- karla_deaths_per_round: {histogram: {deaths: rounds}, mean, by_round: {round: mean}} -
  Karla's deaths in each round played (every round of every game counts once).
- karla_deaths_per_game: {mean, min, max}.
- end: {trigger: {"you"|"karla": games}, cause: {"chronicle"|"graveyard": games},
  detail: {"<trigger>/<cause>": games}} - who filled the last slot, and which.
- score: {histogram: {"40-49": games, ...}, mean, median, min, max,
  achievements: {name: games}} - the random player's final total (sheet_from_state).
- seconds: wall time of the whole run; games_per_second: games / seconds.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any, Literal

from companion.core.json_types import JsonObject
from companion.village.autoplay import play_step
from companion.village.components import ComponentData, load_components
from companion.village.scoring import sheet_from_state
from companion.village.session import KarlaPolicy, VillageSession
from companion.village.setup import PlayerSetup, VillageSetup
from companion.village.state import VillageState

VARIANTS: tuple[Literal["standard", "d4"], ...] = ("standard", "d4")
POLICIES: tuple[KarlaPolicy, ...] = ("ask", "auto")
MAX_STEPS = 5000  # a random solo game takes ~150 accepted commands


def _fixed_clock() -> str:
    return "2026-01-01T00:00:00+00:00"  # event timestamps mean nothing in a simulation


def game_plan(seed: int, index: int) -> tuple[Literal["standard", "d4"], KarlaPolicy, int]:
    """Variant, policy and game seed of game `index`: deterministic from the run seed."""
    k = seed + index
    game_seed = random.Random(f"simulate-karla:{seed}:{index}").randrange(2**31)
    return VARIANTS[k % 2], POLICIES[(k // 2) % 2], game_seed


def new_game(variant: Literal["standard", "d4"], policy: KarlaPolicy, game_seed: int,
             comp: ComponentData) -> VillageSession:
    setup = VillageSetup(players=[PlayerSetup(name="Random", colour="blue")], solo=True,
                         karla_colour="red", karla_variant=variant, seed=game_seed)
    return VillageSession(setup, comp, karla_policy=policy, clock=_fixed_clock)


@dataclass
class GameResult:
    variant: str
    policy: str
    finished: bool
    steps: int
    rounds: int
    karla_deaths_by_round: dict[int, int]  # round -> Karla's deaths in it (every round)
    trigger: str | None  # "you" / "karla"; None if the game never ended
    cause: str | None  # "chronicle" / "graveyard"
    score: int | None
    achievement: str | None
    error: str | None = None


def _karla_dead(state: VillageState) -> int:
    assert state.karla is not None
    return sum(1 for m in state.members.values()
               if m.owner == state.karla.player and not m.living)


def play_one(variant: Literal["standard", "d4"], policy: KarlaPolicy, game_seed: int,
             comp: ComponentData) -> GameResult:
    session = new_game(variant, policy, game_seed, comp)
    rng = random.Random(game_seed)
    deaths: Counter[int] = Counter()
    dead = 0
    trigger: str | None = None
    cause: str | None = None
    steps = 0
    error: str | None = None
    try:
        while steps < MAX_STEPS and play_step(session, rng) is not None:
            steps += 1
            st = session.state
            now_dead = _karla_dead(st)
            if now_dead != dead:
                # Karla dies only from her fate flips in a turn, so st.round is her round.
                deaths[st.round] += now_dead - dead
                dead = now_dead
            if trigger is None and st.end is not None:
                trigger = "karla" if st.players[st.end.triggered_by].kind == "karla" else "you"
                # Checked when the end is triggered: later deaths may fill the other one.
                cause = "chronicle" if st.chronicle_total_free() == 0 else "graveyard"
        if session.state.phase != "finished":
            error = f"no end after {MAX_STEPS} steps (phase {session.state.phase})"
    except Exception as exc:  # a simulation reports a broken game instead of stopping
        error = f"{type(exc).__name__}: {exc}"
    st = session.state
    finished = st.phase == "finished" and error is None
    score = achievement = None
    if finished:
        player = sheet_from_state(st, comp).players[0]
        score, achievement = player.total, player.achievement
    return GameResult(variant=variant, policy=policy, finished=finished, steps=steps,
                      rounds=st.round,
                      karla_deaths_by_round={r: deaths.get(r, 0) for r in range(1, st.round + 1)},
                      trigger=trigger, cause=cause, score=score, achievement=achievement,
                      error=error)


def _histogram(values: list[int]) -> dict[str, int]:
    return {str(k): v for k, v in sorted(Counter(values).items())}


def _stats(values: list[int]) -> dict[str, float | int | None]:
    if not values:
        return {"mean": None, "min": None, "max": None}
    return {"mean": round(statistics.fmean(values), 3), "min": min(values), "max": max(values)}


def _score_bucket(score: int) -> str:
    low = (score // 10) * 10
    return f"{low}-{low + 9}"


def summarise(results: list[GameResult], games: int, seed: int, seconds: float,
              comp: ComponentData) -> JsonObject:
    done = [r for r in results if r.finished]
    per_round = [n for r in done for n in r.karla_deaths_by_round.values()]
    by_round: dict[int, list[int]] = {}
    for r in done:
        for rnd, n in r.karla_deaths_by_round.items():
            by_round.setdefault(rnd, []).append(n)
    scores = [r.score for r in done if r.score is not None]
    errors = [r.error for r in results if r.error]
    buckets = Counter(_score_bucket(s) for s in scores)
    return {
        "games": games,
        "seed": seed,
        "finished": len(done),
        "errors": len(errors),
        "first_error": errors[0] if errors else None,
        "steps": sum(r.steps for r in results),
        "variants": dict(Counter(r.variant for r in results)),
        "policies": dict(Counter(r.policy for r in results)),
        "rounds": {"histogram": _histogram([r.rounds for r in done]),
                   **_stats([r.rounds for r in done])},
        "karla_deaths_per_round": {
            "histogram": _histogram(per_round),
            "mean": round(statistics.fmean(per_round), 3) if per_round else None,
            "by_round": {str(k): round(statistics.fmean(v), 3)
                         for k, v in sorted(by_round.items())},
        },
        "karla_deaths_per_game": _stats([sum(r.karla_deaths_by_round.values())
                                         for r in done]),
        "end": {
            "trigger": dict(Counter(r.trigger for r in done if r.trigger)),
            "cause": dict(Counter(r.cause for r in done if r.cause)),
            "detail": dict(sorted(Counter(f"{r.trigger}/{r.cause}" for r in done
                                          if r.trigger).items())),
        },
        "score": {
            "histogram": dict(sorted(buckets.items(), key=lambda kv: int(kv[0].split("-")[0]))),
            **_stats(scores),
            "median": statistics.median(scores) if scores else None,
            # In the printed order of the achievements, the lowest first.
            "achievements": {name: n for _, name in comp.v("solo_achievements")
                             if (n := sum(1 for r in done if r.achievement == name))},
        },
        "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 2) if seconds > 0 else None,
    }


def run_simulation(games: int, seed: int, comp: ComponentData | None = None
                   ) -> JsonObject:
    comp = comp or load_components("big-box")
    start = time.perf_counter()
    results = [play_one(*game_plan(seed, i), comp) for i in range(games)]
    return summarise(results, games, seed, time.perf_counter() - start, comp)


def _bar(count: int, total: int, width: int = 40) -> str:
    return "#" * (round(width * count / total) if total else 0)


def _print_histogram(title: str, hist: dict[str, int], unit: str) -> None:
    total = sum(hist.values())
    print(title)
    for key, count in hist.items():
        share = 100 * count / total if total else 0.0
        print(f"  {key:>7}  {count:6d} {unit:<6} {share:5.1f}%  {_bar(count, total)}")


def print_report(report: JsonObject) -> None:
    print(f"simulate-karla: {report['games']} games, seed {report['seed']} "
          f"({report['finished']} finished, {report['errors']} failed)")
    print("  variants: " + ", ".join(f"{k} {v}" for k, v in report["variants"].items())
          + "; policies: " + ", ".join(f"{k} {v}" for k, v in report["policies"].items()))
    if report["first_error"]:
        print(f"  first failure: {report['first_error']}")
    rounds = report["rounds"]
    print()
    _print_histogram(f"Rounds per game (mean {rounds['mean']}, min {rounds['min']}, "
                     f"max {rounds['max']})", rounds["histogram"], "games")
    kd = report["karla_deaths_per_round"]
    print()
    _print_histogram(f"Karla's deaths per round (mean {kd['mean']})", kd["histogram"], "rounds")
    print("  mean by round number: "
          + ", ".join(f"R{k} {v}" for k, v in kd["by_round"].items()))
    kg = report["karla_deaths_per_game"]
    print(f"  per game: mean {kg['mean']}, min {kg['min']}, max {kg['max']}")
    end = report["end"]
    print()
    print("How the game ended")
    for key, count in end["detail"].items():
        who, where = key.split("/")
        label = f"{'you' if who == 'you' else 'Karla'} filled the last {where} slot"
        print(f"  {label:<40} {count:6d} games")
    score = report["score"]
    print()
    _print_histogram(f"Random player's final score (mean {score['mean']}, median "
                     f"{score['median']}, min {score['min']}, max {score['max']})",
                     score["histogram"], "games")
    print("  achievements: " + ", ".join(f"{k} {v}" for k, v in score["achievements"].items()))
    print()
    print(f"Throughput: {report['games_per_second']} games/s; total {report['seconds']} s "
          f"({report['steps']} commands)")


def run_simulation_cli(args: Any) -> int:
    """Entry for the CLI: args has .games, .seed, .json. Exit 1 if any game failed."""
    games, seed = int(args.games), int(args.seed)
    if games < 1:
        print("--games: must be at least 1", file=sys.stderr)
        return 2
    report = run_simulation(games, seed)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_report(report)
    return 1 if report["errors"] else 0
