"""Golden event-log replays: the recorded logs must fold to the very same states."""

from __future__ import annotations

import json

import pytest

from companion.village.interpretations import CURRENT_RULES
from companion.village.rules.errors import RuleError
from companion.village.session import VillageSession
from tests.golden.playthrough import CASES, HERE, load_components, load_setup, playthrough
from tests.village.invariants import check_every_event


@pytest.mark.parametrize("name", sorted(CASES))
def test_recorded_log_replays_to_recorded_states(name: str) -> None:
    doc = json.loads((HERE / f"{name}.json").read_text(encoding="utf-8"))
    setup = load_setup(doc)
    assert setup == CASES[name]
    comp = load_components(doc)
    assert playthrough(setup, doc["events"], comp) == doc["digests"]
    resumed = VillageSession(setup, comp, doc["events"])
    assert json.loads(resumed.state.model_dump_json()) == doc["final"]
    assert resumed.state.phase == "finished"
    assert check_every_event(resumed) == resumed.state  # after each recorded event
    chance = [e for e in doc["events"] if e["body"]["type"] == "chance"]
    assert chance and all(e["body"]["source"] == "app" for e in chance)


@pytest.mark.parametrize("name", ["solo_standard", "solo_d4"])
def test_the_logs_recorded_before_rules_versions_replay_only_by_their_own_rules(
        name: str) -> None:
    """These games were played before the rulebook fixes of issue 10 (in a market day held
    through the well Karla still served): stored without a rules version, they load as
    rules version 1 and keep those rules; the current ones would not replay them."""
    doc = json.loads((HERE / f"{name}.json").read_text(encoding="utf-8"))
    assert "rules_version" not in doc["setup"]
    setup = load_setup(doc)
    assert setup.rules_version == 1
    current = setup.model_copy(update={"rules_version": CURRENT_RULES})
    try:
        digests: list[str] | None = playthrough(current, doc["events"], load_components(doc))
    except RuleError:
        digests = None
    assert digests != doc["digests"]
