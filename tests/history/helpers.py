"""Shared builders for the history tests: SessionInfos with summaries as each game's
service writes them, and real finished games in a store."""

from __future__ import annotations

import random
from typing import Any

from companion.store.base import SessionInfo, SessionStore
from companion.tally.service import TallyService
from companion.village.autoplay import play_game
from companion.village.service import VillageService
from companion.village.setup import PlayerSetup, VillageSetup


def info(session_id: str, summary: dict[str, Any], *, game: str = "village",
         finished: bool = True, title: str = "", day: str = "2024-05-01") -> SessionInfo:
    return SessionInfo(id=session_id, game=game, title=title or session_id,
                       created_at=f"{day}T18:00:00.000Z", updated_at=f"{day}T20:00:00.000Z",
                       finished=finished, summary=summary)


def village(players: dict[str, int], *, day: str = "2024-05-01", winners: list[str] | None
            = None, categories: dict[str, dict[str, int]] | None = None,
            edition: str | None = "big-box", start: str | None = None,
            minutes: int | None = None) -> dict[str, Any]:
    """A finished multiplayer Village summary (new shape unless edition is None)."""
    best = max(players.values())
    summary: dict[str, Any] = {
        "players": list(players), "round": 8, "phase": "finished", "solo": False,
        "date": day, "scores": dict(players),
        "winners": winners if winners is not None else
        [p for p, s in players.items() if s == best]}
    if edition is not None:
        summary["edition"] = edition
    if categories is not None:
        summary["categories"] = categories
    if start is not None:
        summary["start_player"] = start
    if minutes is not None:
        summary["started_at"] = f"{day}T18:00:00.000Z"
        summary["ended_at"] = f"{day}T{18 + minutes // 60:02d}:{minutes % 60:02d}:00.000Z"
    return summary


def solo(name: str, score: int, achievement: str | None, *, day: str,
         variant: str | None = "standard", policy: str | None = None,
         minutes: int | None = None) -> dict[str, Any]:
    summary: dict[str, Any] = {
        "players": [name, "Karla"], "round": 6, "phase": "finished", "solo": True,
        "date": day, "scores": {name: score}, "winners": [name], "achievement": achievement,
        "edition": "big-box"}
    if variant is not None:
        summary["karla_variant"] = variant
    if policy is not None:
        summary["karla_policy"] = policy
    if achievement is None:
        del summary["achievement"]
    if minutes is not None:
        summary["started_at"] = f"{day}T03:19:00.000Z"
        summary["ended_at"] = f"{day}T{3 + (19 + minutes) // 60:02d}:{(19 + minutes) % 60:02d}" \
            ":00.000Z"
    return summary


def tally(game: str, players: dict[str, Any], winners: list[str], *,
          day: str = "2024-05-02") -> dict[str, Any]:
    return {"players": list(players), "date": day, "scores": dict(players),
            "winners": winners}


def finished_village(svc: VillageService, names: list[str], seed: int, *,
                     solo_game: bool = False) -> str:
    """A Village game played to its end (in memory), stored finished as the service
    stores it; returns its id."""
    colours = ["blue", "red", "yellow", "white", "purple"]
    setup = VillageSetup(players=[PlayerSetup(name=n, colour=c)
                                  for n, c in zip(names, colours, strict=False)],
                         solo=solo_game, karla_colour="purple" if solo_game else None,
                         seed=seed)
    sid, session = svc.create(setup)
    play_game(session, random.Random(seed))
    assert session.state.phase == "finished"
    svc.store.replace_log(sid, session.events, session.redo_stack,
                          expected=session.saved_version, finished=True,
                          summary=svc._summary(session))
    return sid


def finished_tally(store: SessionStore, game: str, names: list[str]) -> str:
    svc = TallyService(store)
    sid, session = svc.create(game, names)
    if game == "villagers":
        svc.apply(sid, session, session.read_edit({"type": "set", "player": 0, "field": "money",
                                                   "value": 30}))
    else:  # small-city: the second player leaves the game (scores "—")
        svc.apply(sid, session, session.read_edit({"type": "set", "player": 1, "field": "pollution",
                  "value": 100}))
    svc.finish(sid, session)
    return sid
