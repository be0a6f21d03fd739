"""Small City in-game helpers, checked against the seed (001_26a66273f260436d.txt)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from companion.small_city import data
from companion.small_city.actions import affordable_picks, pick_cost
from companion.small_city.phases import PHASE_LIST, Step, phase
from companion.small_city.pollution import TownPollution, pollution_phase, produced_pollution
from companion.small_city.promises import promise_card, promise_deck, promise_votes
from companion.small_city.trade import money_for_material, votes_for_material, votes_for_money
from companion.small_city.voting import residence_votes, voting_phase

SEED = Path("/work/shared/seeds/001_26a66273f260436d.txt")


# --- rounds and phases ---------------------------------------------------------------------

def test_eight_phases_in_seed_order() -> None:
    assert [p.number for p in PHASE_LIST] == list(range(1, 9))
    assert [p.name_zh_hant for p in PHASE_LIST] == [
        "選擇特殊行動", "建築", "移動居民", "收入", "投票", "測量汙染", "影響市議會",
        "市長的下一個訪問"]
    assert phase(6).id == "pollution"
    with pytest.raises(ValueError):
        phase(9)


def test_steps_walk_eight_rounds_of_eight_phases() -> None:
    step: Step | None = Step()
    seen = 0
    last = Step()
    while step is not None:
        seen += 1
        last = step
        step = step.next()
    assert seen == 64
    assert (last.round, last.phase) == (8, 8)
    assert last.is_last_round
    assert Step(round=3, phase=8).next() == Step(round=4, phase=1)


@pytest.mark.parametrize("bad", [{"round": 0}, {"round": 9}, {"phase": 9}, {"round": True}])
def test_step_refuses_out_of_range(bad: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        Step.model_validate(bad)


def test_starting_money_by_seat() -> None:
    assert data.STARTING_MONEY == {1: 4, 2: 5, 3: 5, 4: 6}


# --- special action pick cost --------------------------------------------------------------

def test_seed_pick_example() -> None:
    # L69-L72: blue (mayor) takes Supporter free; red takes Engineer one card further and
    # pays $1; yellow takes Urban Planner right next to red's card for free.
    supporter, engineer, urban_planner = 0, 2, 3
    assert pick_cost(None, supporter) == 0
    assert pick_cost(supporter, engineer, {supporter}) == 1
    assert pick_cost(engineer, urban_planner, {supporter, engineer}) == 0


def test_both_neighbours_are_free() -> None:
    assert pick_cost(0, 1, {0}) == 0
    assert pick_cost(0, 7, {0}) == 0


def test_cost_counts_the_cheaper_way_round() -> None:
    assert pick_cost(0, 4, {0}) == 3  # three unpicked cards either way
    assert pick_cost(0, 5, {0}) == 2  # 7 and 6 counter-clockwise beat 1..4


def test_picked_cards_are_not_counted_as_skipped() -> None:
    # From 2 back past 1 and 0 (both taken) to 7: nothing unpicked is skipped.
    assert pick_cost(2, 7, {0, 1, 2}) == 0
    assert pick_cost(2, 5, {2, 3}) == 1  # only 4 is skipped


def test_taken_card_cannot_be_picked() -> None:
    with pytest.raises(ValueError, match="already taken"):
        pick_cost(0, 3, {0, 3})
    with pytest.raises(ValueError, match="position"):
        pick_cost(0, 8, {0})


def test_affordable_picks_respect_money() -> None:
    picks = affordable_picks(0, {0}, money=1)
    assert picks == {1: 0, 7: 0, 2: 1, 6: 1}
    assert set(affordable_picks(None, set(), money=0)) == set(range(8))


# --- voting and trades ---------------------------------------------------------------------

def test_residence_votes_table() -> None:
    assert [residence_votes(n) for n in range(6)] == [0, 1, 3, 6, 10, 15]
    with pytest.raises(ValueError):
        residence_votes(6)


def test_seed_voting_example() -> None:
    # L214: two R1 with one resident each, a full R3 and a full R4: 1 + 1 + 6 + 10 = 18.
    assert voting_phase([1, 1, 3, 4]) == 18
    # L210: an R5 with 3 residents gives 1+2+3 = 6, full it gives 15.
    assert voting_phase([3]) == 6
    assert voting_phase([5]) == 15


def test_university_adds_three_votes() -> None:
    assert voting_phase([1, 1, 3, 4], university_active=True) == 21
    assert voting_phase([], university_active=True) == 3


def test_trade_tables() -> None:
    assert [votes_for_money(d) for d in (1, 2, 3, 4)] == [2, 3, 4, 5]
    assert [money_for_material(m) for m in ("white", "grey", "black")] == [2, 3, 5]
    assert [votes_for_material(m) for m in ("white", "grey", "black")] == [3, 5, 7]
    with pytest.raises(ValueError):
        votes_for_money(5)


# --- pollution -----------------------------------------------------------------------------

def _town(name: str, level: int, produced: int) -> TownPollution:
    # A town whose round amount is exactly `produced` (residents only).
    return TownPollution(name=name, level=level, residents=produced, materials=0, parks=0)


def test_seed_pollution_amount() -> None:
    # L234: 11 residents, 2 materials from factories, 5 park squares: 11 + 2 - 5 = 8.
    assert produced_pollution(11, 2, 5) == 8


def test_round_amount_never_below_zero_and_engineer() -> None:
    assert produced_pollution(1, 0, 5) == 0
    assert produced_pollution(3, 4, 0, engineer=True) == 3


def test_seed_death_example() -> None:
    # L234: you make 8, your level is already past 10, nobody else makes more than 8.
    me = TownPollution(name="Me", level=12, residents=11, materials=2, parks=5)
    out = pollution_phase([me, _town("Bo", 4, 7), _town("Cy", 20, 3)])
    assert out.deaths_triggered
    assert out.losers == ["Me"]
    assert [t.level for t in out.towns] == [20, 11, 23]


def test_seed_editor_note_example() -> None:
    # L226: A has 11 and makes 4, B has 3 and makes 5: A's level triggers, B loses one.
    out = pollution_phase([_town("A", 11, 4), _town("B", 3, 5)])
    assert out.losers == ["B"]


def test_nobody_dies_below_ten() -> None:
    out = pollution_phase([_town("A", 2, 5), _town("B", 1, 7)])
    assert not out.deaths_triggered
    assert out.losers == []


def test_trigger_counts_this_rounds_amount() -> None:
    # 6 + 4 reaches 10 this round: deaths start now.
    out = pollution_phase([_town("A", 6, 4), _town("B", 0, 2)])
    assert out.deaths_triggered
    assert out.losers == ["A"]


def test_tie_on_amount_goes_to_higher_level() -> None:
    out = pollution_phase([_town("A", 10, 6), _town("B", 14, 6), _town("C", 30, 2)])
    assert out.losers == ["B"]
    assert [t.loses_resident for t in out.towns] == [False, True, False]


def test_tie_on_amount_and_level_every_tied_player_loses() -> None:
    out = pollution_phase([_town("A", 14, 6), _town("B", 14, 6), _town("C", 2, 1)])
    assert out.losers == ["A", "B"]


def test_no_pollution_this_round_still_compares() -> None:
    # L225: nobody produced anything, but someone is past 10: highest level loses one.
    out = pollution_phase([_town("A", 15, 0), _town("B", 12, 0)])
    assert out.losers == ["A"]


def test_project_interpretation_out_top_producer_spares_the_next_producer() -> None:
    # Project interpretation (the seed does not decide it): L224 picks the top producer of
    # the round among everyone measured; A reaches 100 and loses every resident (L228), and
    # nobody loses a resident in A's place.
    out = pollution_phase([_town("A", 95, 9), _town("B", 20, 4), _town("C", 20, 3)])
    assert out.eliminated == ["A"]
    assert out.towns[0].eliminated and out.towns[0].level == 104
    assert out.deaths_triggered
    assert out.losers == []
    assert [t.loses_resident for t in out.towns] == [False, False, False]


def test_project_interpretation_out_player_wins_the_level_tie_break() -> None:
    # A and B both make 6; A's level (101) is the higher, so A is picked and goes out.
    out = pollution_phase([_town("A", 95, 6), _town("B", 40, 6), _town("C", 20, 3)])
    assert out.eliminated == ["A"] and out.losers == []


def test_out_player_who_is_not_the_top_producer_changes_nothing() -> None:
    out = pollution_phase([_town("A", 98, 2), _town("B", 20, 4), _town("C", 20, 3)])
    assert out.eliminated == ["A"] and out.losers == ["B"]


def test_engineer_counts_only_its_own_town_materials() -> None:
    # L77: the Engineer's factories make no pollution; L219: other towns' materials (even
    # those the Engineer's visitors made there) still count where they were made.
    eng = TownPollution(name="Eng", level=20, residents=3, materials=5, parks=0, engineer=True)
    host = TownPollution(name="Host", level=20, residents=3, materials=2, parks=0)
    out = pollution_phase([eng, host])
    assert [t.produced for t in out.towns] == [3, 5]
    assert out.losers == ["Host"]


def test_player_already_out_is_refused() -> None:
    with pytest.raises(ValueError, match="already out"):
        pollution_phase([_town("A", 100, 0), _town("B", 1, 1)])


# --- promise cards -------------------------------------------------------------------------

def test_promise_deck_has_sixteen_normal_and_sixteen_special() -> None:
    cards = promise_deck().cards
    assert [c.number for c in cards] == list(range(1, 33))
    assert [c.pile for c in cards] == ["normal"] * 16 + ["special"] * 16
    for card in cards:
        assert card.provenance.source == "seed"
        assert card.provenance.file == data.SEED_FILE
        assert card.provenance.line == 264 + card.number
        assert card.provenance.pile_line == (8 if card.number <= 16 else 9)
        assert all(card.text_in(lang) for lang in ("en", "zh-Hant", "ko", "de"))
        assert card.value is None  # the seed never says which pile a card is in


def test_promise_texts_are_the_seed_verbatim() -> None:
    if not SEED.exists():
        pytest.skip("seed file not available")
    lines = SEED.read_text("utf-8").split("\n")
    for card in promise_deck().cards:
        assert lines[card.provenance.line - 1] == f"{card.number}.{card.text_in('zh-Hant')}"


def test_promise_card_lookup() -> None:
    assert promise_card(32).text_in("zh-Hant") == "建設了警察局與消防局"
    assert promise_card(6).text_in("en") == "Pollution below 15%"
    with pytest.raises(KeyError):
        promise_card(33)


def test_open_promise_wordings_stay_literal() -> None:
    # Card 10 does not say whether its 3 "areas" are tiles or park groups, nor what "more
    # than 4" counts; cards 21/25 "未建築區域" may be squares without a building or squares
    # outside the construction area.  The translations must not pick a side.
    assert {lang: promise_card(10).text_in(lang) for lang in ("en", "ko", "de")} == {
        "en": "Parks: at least 3 areas joined together, more than 4",
        "ko": "공원: 최소 3개 구역이 합쳐져 4 초과",
        "de": "Parks: mindestens 3 Bereiche zusammengelegt, mehr als 4"}
    assert promise_card(21).text_in("en") == "Most squares of “unbuilt area” of all players"
    assert promise_card(25).text_in("en") == "Fewest squares of “unbuilt area” of all players"
    for number in (21, 25):
        assert "미건축 구역" in promise_card(number).text_in("ko")
        assert "„unbebauten Bereich“" in promise_card(number).text_in("de")


def test_promise_votes() -> None:
    assert [promise_votes(v, True) for v in (6, 12, 18)] == [6, 12, 18]
    assert [promise_votes(v, False) for v in (6, 12, 18)] == [-3, -6, -12]
    with pytest.raises(ValueError):
        promise_votes(10, True)
