"""The interpretations file: every entry quotes its rulebook sentence verbatim, and a
game's reading comes from its setup (or its rules version's default)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from companion.village.interpretations import (
    CURRENT_RULES,
    default_reading,
    interpretation,
    interpretations,
    reading,
)
from companion.village.setup import PlayerSetup, VillageSetup

SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"


def _seed_text(seed: str) -> str:
    [path] = SEEDS.glob(f"{seed}_*.txt")
    return path.read_text("utf-8").replace("**", "")


@pytest.mark.skipif(not SEEDS.is_dir(), reason="needs ../shared/seeds")
def test_every_quoted_sentence_is_in_its_rulebook() -> None:
    for item in interpretations():
        assert item.text in _seed_text(item.seed), item.key
        assert item.other_text is None or item.other_text in _seed_text(item.seed), item.key


@pytest.mark.skipif(not SEEDS.is_dir(), reason="needs ../shared/seeds")
def test_where_names_a_heading_of_its_rulebook_and_editions_have_the_mode() -> None:
    """Issue 19.4: 004's setup heading is 「1. 셋팅」; the 2011 edition has no solo mode;
    a reading that leans on a sentence about another situation says it is an analogy."""
    lines = {line.strip() for line in _seed_text("004").splitlines()}
    assert "1. 셋팅" in lines
    assert interpretation("compensation_2011").where.startswith("1. 셋팅")
    for item in interpretations():
        if item.solo:
            assert "2011" not in item.editions, f"{item.key}: 2011 has no solo mode"
    later = interpretation("marker_coin_paid_later_rounds").reading["out_of_play"]
    assert "analogy" in later and "空手而歸" in later


def _two(edition: str = "big-box", **kw: object) -> VillageSetup:
    return VillageSetup(edition=edition, players=[PlayerSetup(name="A", colour="red"),
                                                  PlayerSetup(name="B", colour="blue")], **kw)


def test_new_games_get_the_chosen_reading_stored_ones_their_legacy() -> None:
    new = _two()
    assert new.rules_version == CURRENT_RULES
    assert reading(new, "final_turns_after_market_end") == "market_host_order"
    stored = VillageSetup.model_validate(
        {"players": [{"name": "A", "colour": "red"}], "solo": True, "karla_colour": "blue"},
        context={"stored": True})
    assert stored.rules_version == 1
    assert reading(stored, "karla_after_well") == "serve_customer"
    assert default_reading("karla_after_well", CURRENT_RULES) == "no_reaction"


def test_2011_has_no_seat_compensation_unless_chosen_as_a_house_rule() -> None:
    """004: 「선마커 … 연장자가 가져가 자신 앞에 두고 선이 된다.」 (the oldest takes the
    start marker and begins — no compensation)."""
    assert _two("2011").compensation is False
    assert reading(_two("2011"), "compensation_2011") == "off"
    assert _two("2011", compensation=True).compensation is True
    assert _two().compensation is True


def test_a_reading_must_be_known_and_one_of_its_options() -> None:
    with pytest.raises(ValidationError, match="readings.nope"):
        _two(readings={"nope": "x"})
    with pytest.raises(ValidationError, match="readings.karla_after_well: must be one of"):
        _two(readings={"karla_after_well": "maybe"})
    with pytest.raises(ValidationError, match="set compensation instead"):
        _two(readings={"compensation_2011": "on"})
    chosen = _two(readings={"final_turns_after_market_end": "after_end_trigger"})
    assert reading(chosen, "final_turns_after_market_end") == "after_end_trigger"
