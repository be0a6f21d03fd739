"""A random player: picks a random command among those the rules accept now
(`Reader.legal_commands`). Drives the property tests, the golden replays and
`simulate-karla`. Deliberately dumb, never clever."""

from __future__ import annotations

import random
from typing import Any

from companion.village.read import Reader, RuleError
from companion.village.session import VillageSession


def candidate_commands(session: VillageSession, rng: random.Random) -> list[dict[str, Any]]:
    """The legal commands now (JSON form, ready for `execute`) in a random order: a kind
    of command first (each kind as likely: ending the turn as likely as each action),
    then one of its variants."""
    kinds: dict[str, list[dict[str, Any]]] = {}
    for cmd in Reader(session.state, session.comp).legal_commands():
        kinds.setdefault(cmd.type, []).append(cmd.model_dump(mode="json"))
    order = list(kinds)
    rng.shuffle(order)
    out: list[dict[str, Any]] = []
    for kind in order:
        rng.shuffle(kinds[kind])
        out += kinds[kind]
    return out


def play_step(session: VillageSession, rng: random.Random) -> dict[str, Any] | None:
    """Apply one random accepted command; returns it, or None when the game is over."""
    if session.state.phase == "finished":
        return None
    if session.state.pending and session.state.pending[0].kind == "chance":
        raise RuntimeError("a draw waits for manual entry; the random player uses app draws")
    for cmd in candidate_commands(session, rng):
        try:
            session.execute(cmd)
        except RuleError:
            continue
        return cmd
    raise RuntimeError(f"no accepted command in phase {session.state.phase}, "
                       f"stage {session.state.stage}, pending {session.state.pending}")


def play_game(session: VillageSession, rng: random.Random, max_steps: int = 5000) -> int:
    steps = 0
    while steps < max_steps and play_step(session, rng) is not None:
        steps += 1
    return steps
