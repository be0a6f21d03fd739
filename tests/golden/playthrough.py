"""Golden playthroughs: a recorded event log plus a digest of the state after each event.

Regenerate only after an intended rule change:  python -m tests.golden.playthrough
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

from companion.village.autoplay import play_game
from companion.village.engine import apply_event, start_state
from companion.village.session import VillageSession, parse_body
from companion.village.setup import PlayerSetup, VillageSetup

HERE = Path(__file__).parent
CASES: dict[str, VillageSetup] = {
    "three_players": VillageSetup(players=[PlayerSetup(name="Chris", colour="blue"),
                                           PlayerSetup(name="Julie", colour="yellow"),
                                           PlayerSetup(name="Oliver", colour="red")], seed=7),
    "solo_standard": VillageSetup(players=[PlayerSetup(name="Chris", colour="blue")], solo=True,
                                  karla_colour="purple", seed=11),
    "solo_d4": VillageSetup(players=[PlayerSetup(name="Chris", colour="blue")], solo=True,
                            karla_colour="white", karla_variant="d4", seed=13),
}


def digest(state_json: str) -> str:
    return hashlib.sha256(state_json.encode()).hexdigest()[:16]


def playthrough(setup: VillageSetup, events: list[dict[str, Any]]) -> list[str]:
    """Fold the log from scratch and digest the state after each event."""
    session = VillageSession.new(setup)  # only for the component data of this edition
    state = start_state(setup, session.comp)
    digests = []
    for ev in events:
        apply_event(state, session.comp, parse_body(ev["body"]))
        digests.append(digest(state.model_dump_json()))
    return digests


def regenerate() -> None:
    for name, setup in CASES.items():
        session = VillageSession.new(setup, clock=lambda: "2026-01-01T00:00:00+00:00",
                                     karla_policy="auto")
        play_game(session, random.Random(setup.seed))
        doc = {"setup": setup.model_dump(mode="json"), "events": session.events,
               "digests": playthrough(setup, session.events),
               "final": json.loads(session.state.model_dump_json())}
        (HERE / f"{name}.json").write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n",
                                           encoding="utf-8")
        print(name, len(session.events), "events")


if __name__ == "__main__":
    regenerate()
