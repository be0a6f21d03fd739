"""Golden event-log replays: the recorded logs must fold to the very same states."""

from __future__ import annotations

import json

import pytest

from companion.village.session import VillageSession
from companion.village.setup import VillageSetup
from tests.golden.playthrough import CASES, HERE, playthrough
from tests.village.invariants import check_every_event


@pytest.mark.parametrize("name", sorted(CASES))
def test_recorded_log_replays_to_recorded_states(name: str) -> None:
    doc = json.loads((HERE / f"{name}.json").read_text(encoding="utf-8"))
    setup = VillageSetup.model_validate(doc["setup"])
    assert setup == CASES[name]
    assert playthrough(setup, doc["events"]) == doc["digests"]
    session = VillageSession.new(setup)
    resumed = VillageSession(setup, session.comp, doc["events"])
    assert json.loads(resumed.state.model_dump_json()) == doc["final"]
    assert resumed.state.phase == "finished"
    assert check_every_event(resumed) == resumed.state  # after each recorded event
    chance = [e for e in doc["events"] if e["body"]["type"] == "chance"]
    assert chance and all(e["body"]["source"] == "app" for e in chance)
