"""The component data against the rulebooks (issue 10, items 6 and 7): the setup-card
estimates keep the rulebook's word that more cubes go into the bag than come out; a value
read out of an example or chosen where the rulebook is silent is not presented as `seed`;
every passage the changed references quote is verbatim in its rulebook."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from companion.store.memory import MemoryStore
from companion.village.components import (
    BAG_NOT_ABOVE_DRAW,
    EDITION_FILES,
    ComponentProblem,
    ComponentWarning,
    Edition,
    component_warnings,
    load_components,
)
from companion.village.interpretations import interpretation
from companion.village.service import VillageService
from companion.village.setup import PlayerSetup, VillageSetup

EDITIONS: tuple[Edition, ...] = ("big-box", "2011")
SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"


def _raw(edition: str) -> dict[str, Any]:
    text = resources.files("companion.village.data").joinpath(EDITION_FILES[edition]).read_text(
        encoding="utf-8")
    return dict(json.loads(text))


def _seed_text(seed: str) -> str:
    [path] = SEEDS.glob(f"{seed}_*.txt")
    return path.read_text("utf-8").replace("**", "")


# ---- item 7: the bag gets more cubes than are drawn -------------------------------------
@pytest.mark.parametrize("edition", EDITIONS)
def test_more_cubes_go_into_the_bag_each_round_than_are_drawn(edition: Edition) -> None:
    """「每輪加入布袋的方塊會多於抽出的方塊」 (000, the note under 三人遊戲的範例: each round
    more cubes go into the bag than are drawn).

    Added: the setup card's cubes of each colour (遊戲設置卡會指示你在每輪開始時，從供應區
    拿取對應數量及顏色的方塊放入綠色布袋中) plus the plague cubes in the supply; drawn: the
    card's count for each action space (遊戲設置卡上會指示每個行動格應該放置幾個方塊). The
    plague cubes added vary (加入綠色布袋中的瘟疫方塊偶爾會少於6個; none after a round that
    drew none), so the sentence holds every round only if the influence cubes alone
    outnumber the cubes drawn. The 2011 rules (004 새 큐브 공급) only say that cubes left in
    the bag stay there (주머니 안에 남은 큐브는 그대로 둔다); the 2011 data uses the Big Box
    cards, so the same must hold there."""
    data = load_components(edition)
    colours = len(data.v("influence_colours"))
    assert set(data.v("setup_cards")) == {str(n) for n in data.v("player_counts")}
    for n in data.v("player_counts"):
        card = data.setup_card(n)
        added, drawn = card.bag_per_colour * colours, card.cubes_placed
        assert added > drawn, f"{edition} setup_cards.{n}: {added} into the bag, {drawn} drawn"
        assert drawn % n == 0  # 提示2: everyone gets the same number of turns
    assert component_warnings(data) == []


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_setup_card_note_says_why_and_quotes_the_rulebook(edition: Edition) -> None:
    ref = load_components(edition).values["setup_cards"].ref
    assert "每輪加入布袋的方塊會多於抽出的方塊" in ref
    assert "18/21/24" in ref and "20/24/28" in ref


def _with_card(players: int, bag: int) -> dict[str, Any]:
    cards = load_components("big-box").v("setup_cards")
    cards[str(players)]["bag_per_colour"] = bag
    return {"setup_cards": cards}


def test_a_corrected_card_that_breaks_it_is_warned_about_not_refused() -> None:
    data = load_components("big-box", _with_card(2, 4))  # accepted: no ComponentProblem
    assert component_warnings(data) == [ComponentWarning(
        BAG_NOT_ABOVE_DRAW, "setup_cards.2", {"players": 2, "added": 16, "drawn": 18})]


def test_as_many_in_as_out_is_not_more() -> None:
    data = load_components("big-box", _with_card(4, 6))  # 24 in, 24 drawn
    assert [(w.item, w.params) for w in component_warnings(data)] == [
        ("setup_cards.4", {"players": 4, "added": 24, "drawn": 24})]
    assert component_warnings(load_components("big-box", _with_card(4, 7))) == []


def test_the_service_stores_such_a_card_and_new_games_play_with_it() -> None:
    svc = VillageService(MemoryStore())
    svc.correct("big-box", "setup_cards", _with_card(2, 4)["setup_cards"])
    assert [w.item for w in component_warnings(svc.components("big-box"))] == ["setup_cards.2"]
    _, session = svc.create(VillageSetup(players=[PlayerSetup(name="A", colour="red"),
                                                  PlayerSetup(name="B", colour="blue")], seed=3))
    assert session.comp.setup_card(2).bag_per_colour == 4
    assert 33 - session.state.supply["pink"] == 4  # the first fill used the corrected card


# ---- item 6: provenance ---------------------------------------------------------------
@pytest.mark.parametrize("edition", EDITIONS)
def test_church_costs_are_an_estimate_read_from_the_mass_example(edition: Edition) -> None:
    entry = load_components(edition).values["church_advance_grain"]
    assert entry.value == {"2": 1, "3": 1, "4": 2}
    assert entry.provenance == "estimate"  # the component check asks the players
    assert "L2 1, L3 1, L4 2" in entry.ref


def test_the_marriage_bread_example_is_not_taken_for_the_base_costs() -> None:
    ref = load_components("big-box").values["church_advance_grain"].ref
    assert "花費3袋穀物跟1個麵包" in ref and "麵包圖示只用於婚姻擴充" in ref


def test_market_front_spaces_cite_the_2011_sentence_with_the_counts() -> None:
    sentence = "(4인-10칸, 3인-9칸, 2인 8칸만 사용)"
    old, big = load_components("2011"), load_components("big-box")
    assert old.values["market_front_spaces"].provenance == "seed"
    assert old.values["market_front_spaces"].ref.startswith("004") and sentence in (
        old.values["market_front_spaces"].ref)
    # The Big Box rulebook names the marks but not how many spaces carry them: the counts
    # come from the 2011 board, an outside reference for the Big Box.
    assert big.values["market_front_spaces"].provenance == "source"
    assert sentence in big.values["market_front_spaces"].ref
    assert [old.front_spaces(n) for n in (2, 3, 4)] == [3, 4, 5]
    assert [big.front_spaces(n) for n in (2, 3, 4, 5)] == [3, 4, 5, 5]
    assert old.values["market_queue_spaces"].provenance == "seed"


def test_the_plague_cubes_cite_the_setup_step_that_counts_them() -> None:
    entry = load_components("big-box").values["plague_cubes"]
    assert entry.value == 6 and entry.provenance == "seed"
    assert "將25袋穀物、影響力方塊跟6個瘟疫方塊放在遊戲版圖旁公共供應區" in entry.ref


@pytest.mark.parametrize("edition", EDITIONS)
def test_readings_and_inferences_are_not_presented_as_seed(edition: Edition) -> None:
    data = load_components(edition)
    # 6 cities: read from the score table and the 6 round markers, not printed as such.
    assert data.values["travel_cities"].provenance == "estimate"
    # The Big Box names no seat to start the final turns from (interpretations.json).
    if edition in interpretation("final_turns_after_market_end").editions:
        assert data.values["final_turns_market"].provenance != "seed"
    else:
        assert data.values["final_turns_market"].ref.startswith("004 최종액션 C")


# Every passage the references of issue 10 quote, verbatim (bold marks aside) in the seed.
QUOTES: dict[tuple[Edition, str], list[tuple[str, str]]] = {
    ("big-box", "setup_cards"): [
        ("000", "遊戲設置卡會指示你在每輪開始時，從供應區拿取對應數量及顏色的方塊放入綠色布袋中"),
        ("000", "此外，你還必須將所有瘟疫方塊放入布袋中"),
        ("000", "遊戲設置卡上會指示每個行動格應該放置幾個方塊"),
        ("000", "在一輪開始時填滿行動格的影響力方塊數量，是可以與遊戲人數整除的"),
        ("000", "「市集」行動格上永遠都只有1個方塊"),
        ("000", "每輪加入布袋的方塊會多於抽出的方塊"),
        ("000", "加入綠色布袋中的瘟疫方塊偶爾會少於6個")],
    ("2011", "setup_cards"): [
        ("004", "인원수에 해당하는 1개를 영향력 큐브 일반공급처 옆에 둔다. 나머지 2개는 게임에서 "
                "사용하지 않는다"),
        ("004", "셋업카드에 표시된 큐브수대로 일반공급처에서 큐브들을 가져다 녹색주머니 안에 넣고 "
                "표시된 위치마다 해당 수의 큐브를 뽑아 게임판에 배치한다. 주머니 안에 남은 큐브는 "
                "그대로 둔다."),
        ("000", "每輪加入布袋的方塊會多於抽出的方塊")],
    ("big-box", "church_advance_grain"): [
        ("000", "要推進一名家族成員(向右移動)，你必須花費每個階級上方所示數量的穀物"),
        ("000", "他將3個有顏色的家族成員放在教堂軌的第一階級上"),
        ("000", "將另外一袋穀物放回供應區，將他的編號2家族成員推進到第二階級"),
        ("000", "將2袋穀物放回供應區，並將他的藍色編號1家族成員推進(向右)到第三階級"),
        ("000", "奧利佛將4袋穀物放回供應區，將他的紅色編號2家族成員推進到第四階級"),
        ("000", "花費3袋穀物跟1個麵包"), ("000", "麵包圖示只用於婚姻擴充")],
    ("2011", "church_advance_grain"): [
        ("004", "각 가족원마다 이동된 각 창문 사이에 표시된 곡식자루를 소비한다")],
    ("big-box", "plague_cubes"): [
        ("000", "將25袋穀物、影響力方塊跟6個瘟疫方塊放在遊戲版圖旁公共供應區"),
        ("000", "加入綠色布袋中的瘟疫方塊偶爾會少於6個"),
        ("000", "請記住第7個瘟疫方塊只有在遊玩婚姻擴充時才會加入遊戲")],
    ("2011", "plague_cubes"): [
        ("000", "將25袋穀物、影響力方塊跟6個瘟疫方塊放在遊戲版圖旁公共供應區")],
    ("2011", "market_front_spaces"): [
        ("004", "게임판 우상측 시장부분 10칸에 인원수보다 큰 숫자가 표시된 칸을 제외하고 좌에서 "
                "우측 순으로 1장씩 공개(숫자만)로 펴놓는다. (4인-10칸, 3인-9칸, 2인 8칸만 사용)"),
        ("004", "이번 장날동안 비워진 파란 사각형을 대기손님타일(5개의 예비 공백)의 위쪽에서 "
                "아래쪽 순서로 옮겨서 채운다")],
    ("big-box", "market_front_spaces"): [
        ("000", "標示4-5的空格不要放置板塊"), ("000", "標示3-5以及標示4-5的空格不要放置板塊"),
        ("004", "(4인-10칸, 3인-9칸, 2인 8칸만 사용)"),
        ("000", "剩餘5位在棕色格子中的顧客視為正在排隊")],
    ("2011", "market_queue_spaces"): [
        ("004", "이번 장날동안 비워진 파란 사각형을 대기손님타일(5개의 예비 공백)의 위쪽에서 "
                "아래쪽 순서로 옮겨서 채운다")],
    ("big-box", "travel_cities"): [
        ("000", "1座城市 = 1分"), ("000", "6座城市 = 18分"),
        ("000", "紅色、黃色、藍色、白色、紫色各6個"),
        ("000", "你只能在每座城市各放置一個圓形標記")],
    ("2011", "travel_cities"): [
        ("004", "6개=18점"), ("004", "각 게임자는 도시마다 자신의 마커를 최대 1개만 올릴 수 있고")],
    ("big-box", "final_turns_market"): [
        ("000", "如果觸發市集日跟遊戲結束的不是同一位玩家，"
                "則所有玩家依順時鐘順序各再執行一個行動")],
    ("2011", "seat_compensation"): [
        ("004", "선마커 (직사각 중간 타일 2마름 그림) - 연장자가 가져가 자신 앞에 두고 선이 된다")],
}


@pytest.mark.parametrize(("edition", "key"), sorted(QUOTES))
def test_the_reference_quotes_its_passages(edition: Edition, key: str) -> None:
    ref = _raw(edition)["values"][key]["ref"]
    for _seed, passage in QUOTES[(edition, key)]:
        assert passage in ref, (edition, key, passage)


@pytest.mark.skipif(not SEEDS.is_dir(), reason="needs ../shared/seeds")
@pytest.mark.parametrize(("edition", "key"), sorted(QUOTES))
def test_every_quoted_passage_is_in_its_rulebook(edition: Edition, key: str) -> None:
    for seed, passage in QUOTES[(edition, key)]:
        assert passage in _seed_text(seed), (edition, key, seed, passage)


def test_a_church_cost_correction_must_name_every_level() -> None:
    svc = VillageService(MemoryStore())
    with pytest.raises(ComponentProblem, match="church_advance_grain: must give the grain "
                                               "for levels 2-4"):
        svc.correct("big-box", "church_advance_grain", {"2": 1, "3": 1})
    with pytest.raises(ComponentProblem, match=r"church_advance_grain\.4"):
        svc.correct("big-box", "church_advance_grain", {"2": 1, "3": 1, "4": -1})
    with pytest.raises(ComponentProblem, match="travel_cities: must be at least 1"):
        svc.correct("big-box", "travel_cities", 0)
    svc.correct("2011", "church_advance_grain", {"2": 1, "3": 2, "4": 2})
    assert svc.components("2011").v("church_advance_grain") == {"2": 1, "3": 2, "4": 2}
