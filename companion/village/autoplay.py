"""A random player: plays a random command among those the rules accept now
(`Reader.legal_commands`). Drives the property tests, the golden replays and
`simulate-karla`. Deliberately dumb, never clever."""

from __future__ import annotations

import random
from typing import Any

from companion.core.json_types import JsonObject
from companion.village.read import Reader, RuleError
from companion.village.session import VillageSession


def candidate_commands(session: VillageSession, rng: random.Random) -> list[Any]:
    """The Reader's command candidates (command models) in a random order: the kinds of command
    shuffled (ending the turn as likely as each action), then each kind's variants. The
    first one `execute` accepts is a random legal command: the accepted candidates are
    exactly `Reader.legal_commands()`, found without trying every one on a copy first."""
    kinds: dict[str, list[Any]] = {}
    for cmd in Reader(session.state, session.comp).command_candidates():
        kinds.setdefault(cmd.type, []).append(cmd)
    order = list(kinds)
    rng.shuffle(order)
    out: list[Any] = []
    for kind in order:
        rng.shuffle(kinds[kind])
        out += kinds[kind]
    return out


def play_step(session: VillageSession, rng: random.Random) -> JsonObject | None:
    """Apply one random legal command; returns it (JSON form), or None when the game is
    over."""
    if session.state.phase == "finished":
        return None
    if session.state.pending and session.state.pending[0].kind == "chance":
        raise RuntimeError("a draw waits for manual entry; the random player uses app draws")
    for cmd in candidate_commands(session, rng):
        try:
            session.execute(cmd)
        except RuleError:
            continue
        return dict(cmd.model_dump(mode="json"))
    raise RuntimeError(f"no accepted command in phase {session.state.phase}, "
                       f"stage {session.state.stage}, pending {session.state.pending}")


def play_game(session: VillageSession, rng: random.Random, max_steps: int = 5000) -> int:
    steps = 0
    while steps < max_steps and play_step(session, rng) is not None:
        steps += 1
    return steps
