"""The finished games the history benchmarks measure (companion/bench/history.py and
companion/bench/home.py), written straight into a TinyDBStore data folder as
companion/bench/store.py does (same file layout, built by the store's own session_meta /
session_file_tables), then listed once so the index exists, as it would after the app's
first start."""

from __future__ import annotations

import json
import random
from pathlib import Path

from companion.core.json_types import JsonObject
from companion.games import TALLY_GAMES
from companion.store.base import utc_iso
from companion.store.session_file import session_file_tables, session_meta
from companion.store.tinydb_store import SESSIONS_DIR, TinyDBStore

NAMES = ["Ann", "Bo", "Chris", "Christopher", "Zoë", "Julie", "Oliver", "Mia", "Noah",
         "Léa", "Sam", "Kai"]
CATEGORIES = ("prestige", "travel", "church", "customers", "chronicle", "council", "coins")


def _summary(n: int, rng: random.Random) -> tuple[str, JsonObject]:
    """A finished game's summary, shaped as each game's service writes it."""
    day = f"2024-{1 + n % 12:02d}-{1 + n % 28:02d}"
    if n % 10 == 9:
        game = TALLY_GAMES[n % len(TALLY_GAMES)]
        names = rng.sample(NAMES, rng.randint(2, 4))
        scores = {p: rng.randint(10, 90) for p in names}
        best = max(scores.values())
        return game, {"players": names, "date": day, "scores": scores,
                      "winners": [p for p, s in scores.items() if s == best]}
    solo = n % 7 == 0
    names = rng.sample(NAMES, 1 if solo else rng.randint(2, 5))
    cats = {p: {c: rng.randint(0, 12) for c in CATEGORIES} for p in names}
    scores = {p: sum(c.values()) for p, c in cats.items()}
    best = max(scores.values())
    ranks = {p: 1 + sum(1 for s in scores.values() if s > scores[p]) for p in names}
    summary: JsonObject = {
        "players": names + (["Karla"] if solo else []), "round": 9, "phase": "finished",
        "solo": solo, "date": day, "edition": "big-box",
        "started_at": f"{day}T18:00:00.000Z", "ended_at": f"{day}T19:{n % 60:02d}:00.000Z",
        "scores": scores, "winners": [p for p in names if scores[p] == best],
        "ranks": ranks, "categories": cats, "start_player": names[0]}
    if solo:
        summary["achievement"] = "traveller"
        summary["karla_variant"] = "d4" if n % 2 else "standard"
    return "village", summary


def write_history_fixture(root: Path, count: int, seed: int = 0) -> None:
    """`count` finished games, a few events each, and the index Home would build."""
    sessions = root / SESSIONS_DIR
    sessions.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    now = utc_iso()
    events = [{"seq": i, "group": i, "at": now, "body": {"type": "end_turn"}}
              for i in range(5)]
    for n in range(count):
        game, summary = _summary(n, rng)
        session_id = f"game-{n:05d}"
        meta = session_meta(session_id, game, ", ".join(summary["players"]),
                            {"game": game}, now, finished=True, summary=summary)
        (sessions / f"{session_id}.json").write_text(
            json.dumps(session_file_tables(meta, events, [])), "utf-8")
    TinyDBStore(root).list_sessions()  # builds index.json, as the first start would


def store_finished_game(store: TinyDBStore, n: int) -> str:
    """One more finished Village game, saved now (the newest in the history): its id."""
    sid = f"bench-done-{n}"
    _, summary = _summary(n, random.Random(n))
    now = utc_iso()  # played today: first on Home's list (the fixture's games are older)
    summary.update(date=now[:10], started_at=now, ended_at=now)
    store.create(sid, "village", sid, {"game": "village"})
    store.update_info(sid, finished=True, summary=summary)
    return sid
