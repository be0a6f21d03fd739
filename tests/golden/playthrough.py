"""Golden playthroughs: a recorded event log plus a digest of the state after each event.

Regenerate only after an intended rule change:  python -m tests.golden.playthrough [NAME...]
The logs recorded before rules versions (rules version 1) are never regenerated: they are
the stored games that must keep replaying as they were played.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

from companion.village.autoplay import play_game
from companion.village.components import ComponentData
from companion.village.engine import apply_event, start_state
from companion.village.session import VillageSession, parse_body
from companion.village.setup import PlayerSetup, VillageSetup

HERE = Path(__file__).parent
CASES: dict[str, VillageSetup] = {
    # Recorded before rules versions: stored games of rules version 1 (their setups have
    # none), which must replay exactly as they were played.
    "three_players": VillageSetup(players=[PlayerSetup(name="Chris", colour="blue"),
                                           PlayerSetup(name="Julie", colour="yellow"),
                                           PlayerSetup(name="Oliver", colour="red")], seed=7,
                                  rules_version=1),
    "solo_standard": VillageSetup(players=[PlayerSetup(name="Chris", colour="blue")], solo=True,
                                  karla_colour="purple", seed=11, rules_version=1),
    "solo_d4": VillageSetup(players=[PlayerSetup(name="Chris", colour="blue")], solo=True,
                            karla_colour="white", karla_variant="d4", seed=13,
                            rules_version=1),
    # Rules version 2 (issue 10's fixes, each reading its default then).
    "solo_standard_v2": VillageSetup(players=[PlayerSetup(name="Chris", colour="blue")],
                                     solo=True, karla_colour="purple", seed=11,
                                     rules_version=2),
    # Rules version 3 (issue 19: Karla takes nothing after she has ended the game, payments
    # compared with the printed cost and confirmed ones logged as overrides).
    "solo_standard_v3": VillageSetup(players=[PlayerSetup(name="Chris", colour="blue")],
                                     solo=True, karla_colour="purple", seed=11,
                                     rules_version=3),
    "three_players_v3": VillageSetup(players=[PlayerSetup(name="Chris", colour="blue"),
                                              PlayerSetup(name="Julie", colour="yellow"),
                                              PlayerSetup(name="Oliver", colour="red")],
                                     seed=7, rules_version=3),
}


def load_setup(doc: dict[str, Any]) -> VillageSetup:
    """A recorded setup, loaded as the service loads a stored game's."""
    return VillageSetup.model_validate(doc["setup"], context={"stored": True})


def digest(state_json: str) -> str:
    return hashlib.sha256(state_json.encode()).hexdigest()[:16]


def load_components(doc: dict[str, Any]) -> ComponentData:
    """The component values the game was recorded with (a stored game keeps them in its
    header), so a later correction of the shipped estimates never changes a replay."""
    return ComponentData.model_validate(doc["components"])


def playthrough(setup: VillageSetup, events: list[dict[str, Any]],
                comp: ComponentData) -> list[str]:
    """Fold the log from scratch and digest the state after each event."""
    state = start_state(setup, comp)
    digests = []
    for ev in events:
        apply_event(state, comp, parse_body(ev["body"]))
        digests.append(digest(state.model_dump_json()))
    return digests


def regenerate(names: list[str] | None = None) -> None:
    """Write the golden files of `names` (every case if None)."""
    for name, setup in CASES.items():
        if names and name not in names:
            continue
        session = VillageSession.new(setup, clock=lambda: "2026-01-01T00:00:00+00:00",
                                     karla_policy="auto")
        play_game(session, random.Random(setup.seed))
        doc = {"setup": setup.model_dump(mode="json"),
               "components": session.comp.model_dump(mode="json"), "events": session.events,
               "digests": playthrough(setup, session.events, session.comp),
               "final": json.loads(session.state.model_dump_json())}
        (HERE / f"{name}.json").write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n",
                                           encoding="utf-8")
        print(name, len(session.events), "events")


if __name__ == "__main__":
    import sys

    regenerate(sys.argv[1:] or None)
