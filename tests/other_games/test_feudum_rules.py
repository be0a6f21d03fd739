"""Feudum in-game helpers and final-scoring pieces, checked against the seed
(002_2d959dfd088ee047.txt)."""

from __future__ import annotations

import pytest

from companion.feudum.data import PROGRESS_DIE_FACES, REGIONS
from companion.feudum.dawn import (
    DawnPlayer,
    active_regions_vp,
    dawn_scores,
    disloyalty_penalty,
    guild_status_vp,
    outlands_vp,
)
from companion.feudum.final import Journey, empire, journey_points, shillings_points
from companion.feudum.progress import needs_roll, resolve_progress_roll, triggered_epoch

# --- dawn scoring --------------------------------------------------------------------------

def test_guild_status() -> None:
    assert guild_status_vp(["master"], players=2) == 5
    assert guild_status_vp(["master", "expert", "expert"], players=3) == 11
    assert guild_status_vp(["apprentice"], players=4) == 1
    assert guild_status_vp([], players=5) == 0


def test_no_apprentice_below_four_players() -> None:
    with pytest.raises(ValueError, match="apprentice"):
        guild_status_vp(["apprentice"], players=3)


def test_outlands() -> None:
    assert outlands_vp(with_resources=2, empty=1) == 10
    assert outlands_vp(0, 0) == 0


def test_active_regions_table() -> None:
    assert [active_regions_vp(n) for n in range(7)] == [0, 1, 3, 5, 7, 9, 11]
    with pytest.raises(ValueError):
        active_regions_vp(7)


def test_seed_disloyalty_example() -> None:
    # L450: a vassal who never covers a catapult space loses 3 at the dawn of epoch 2,
    # 4 + 3 more at epoch 4 (10 so far), and 12 at the end (epoch 5): 22 in all.
    lost = {epoch: disloyalty_penalty(epoch, service_discs=0, vassal=True)
            for epoch in (2, 3, 4, 5)}
    assert lost == {2: 3, 3: 0, 4: 7, 5: 12}
    assert lost[2] + lost[3] + lost[4] == 10
    assert sum(lost.values()) == 22


def test_disloyalty_covered_spaces_and_non_vassals() -> None:
    assert [disloyalty_penalty(e, 1, True) for e in (2, 4, 5)] == [0, 4, 9]
    assert [disloyalty_penalty(e, 2, True) for e in (2, 4, 5)] == [0, 0, 5]
    assert [disloyalty_penalty(e, 3, True) for e in (2, 4, 5)] == [0, 0, 0]
    assert [disloyalty_penalty(e, 0, False) for e in (2, 4, 5)] == [0, 0, 0]


def test_only_dawns_of_epochs_two_to_five() -> None:
    with pytest.raises(ValueError):
        disloyalty_penalty(1, 0, True)
    with pytest.raises(ValueError):
        dawn_scores(6, [DawnPlayer(name="A"), DawnPlayer(name="B")])


def test_dawn_scores_add_up() -> None:
    ann = DawnPlayer(name="Ann", guild_statuses=["master", "apprentice"],
                     outlands_with_resources=1, outlands_empty=1, active_regions=3,
                     vassal=True, service_discs=0)
    others = [DawnPlayer(name=n) for n in ("Bob", "Cy", "Di")]
    scores = dawn_scores(4, [ann, *others])
    assert (scores[0].guilds, scores[0].outlands, scores[0].regions,
            scores[0].disloyalty) == (6, 6, 5, -7)
    assert scores[0].total == 10
    assert [s.total for s in scores[1:]] == [0, 0, 0]


# --- progress die --------------------------------------------------------------------------

def _stacks(**tops: list[int]) -> dict[str, list[int]]:
    stacks = {r: [1, 2, 3, 4] for r in REGIONS}
    stacks.update(tops)
    return stacks


def test_die_faces_are_the_six_regions() -> None:
    assert sorted(PROGRESS_DIE_FACES) == [1, 2, 3, 4, 5, 6]
    assert list(PROGRESS_DIE_FACES.values()) == list(REGIONS)


def test_roll_removes_top_tile_of_current_or_earlier_epoch() -> None:
    result = resolve_progress_roll(3, _stacks(), epoch=1)
    assert result.region == "forest"
    assert result.removed_epoch == 1
    assert not result.reroll
    assert result.stacks["forest"] == (2, 3, 4)
    assert result.stacks["ocean"] == (1, 2, 3, 4)


def test_roll_on_later_epoch_tile_means_roll_again() -> None:
    result = resolve_progress_roll(1, _stacks(ocean=[3, 4], island=[1]), epoch=2)
    assert result.reroll
    assert result.removed_epoch is None
    assert result.stacks["ocean"] == (3, 4)


def test_empty_stack_means_roll_again() -> None:
    assert resolve_progress_roll(2, _stacks(island=[]), epoch=1).reroll


def test_no_roll_when_no_tile_is_due() -> None:
    stacks = {r: [4] for r in REGIONS}
    assert not needs_roll(stacks, 3)
    with pytest.raises(ValueError, match="do not roll"):
        resolve_progress_roll(1, stacks, 3)


def test_roll_value_is_checked() -> None:
    with pytest.raises(ValueError):
        resolve_progress_roll(7, _stacks(), 1)
    with pytest.raises(ValueError, match="one stack for each region"):
        resolve_progress_roll(1, {"ocean": [1]}, 1)


def test_epoch_triggers() -> None:
    three_show_two = _stacks(ocean=[2], island=[2, 3], forest=[2])
    assert triggered_epoch(three_show_two, 1) is None
    four_show_two = {**three_show_two, "desert": [3]}
    assert triggered_epoch(four_show_two, 1) == 2
    assert triggered_epoch(_stacks(ocean=[4], island=[4]), 3) == 4
    assert triggered_epoch(_stacks(ocean=[]), 4) == 5
    assert triggered_epoch(_stacks(ocean=[]), 5) is None


# --- final scoring pieces ------------------------------------------------------------------

def test_journey_leaders_take_the_higher_value() -> None:
    js = [Journey(stage=2, position=3), Journey(stage=2, position=2),
          Journey(stage=1, position=1), Journey(stage=4, position=1), Journey()]
    assert journey_points(js) == [9, 7, 5, 17, 0]


def test_journey_ties_all_take_the_higher_value() -> None:
    js = [Journey(stage=3, position=2), Journey(stage=3, position=2),
          Journey(stage=3, position=1)]
    assert journey_points(js) == [13, 13, 11]


def test_empire_base_and_sets() -> None:
    assert empire(1, 3, 0, 1).points == 1 + 3 + 3 + 3  # three farms make a set
    assert empire(2, 2, 0, 0).points == 4
    assert empire(0, 0, 0, 0).points == 0


def test_fiefs_are_wild_and_each_counts_once() -> None:
    # Two fiefs complete two different types.
    e = empire(2, 0, 2, 2)
    assert e.points == 2 + 2 + 6 + 6
    assert e.fief_assignment["outpost"] == 1 and e.fief_assignment["town"] == 1
    # One fief cannot complete two types at once.
    assert empire(2, 2, 0, 1).points == 4 + 3 + 3


def test_three_fiefs_match_themselves() -> None:
    # Seed L1048: a fief counts as any location type, fiefs included.
    assert empire(0, 0, 0, 3).points == 9 + 3
    assert empire(3, 3, 3, 3).points == 9 + 9 + 4 * 3
    assert empire(0, 0, 0, 6).points == 18 + 2 * 3


def test_shillings_round_down() -> None:
    assert [shillings_points(s) for s in (0, 2, 3, 7, 9)] == [0, 0, 1, 2, 3]
