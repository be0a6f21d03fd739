"""Why each estimated printed value is an estimate, in the reader's language.

The data files (companion/village/data) keep one English note per value, quoting the
rulebooks inline; that is the record for maintainers. The component check shows this
instead: an explanation from the catalogues (`village.why.*`, all four languages) and each
rulebook sentence it rests on as a quote, exactly as printed, with its translation into the
reader's language (none when the reader reads the rulebook's own language).

Rulebooks: `000` the Big Box rulebook (Traditional Chinese), `004` the 2011 rules (Korean).
"""

from __future__ import annotations

from dataclasses import dataclass

Edition = str  # "big-box" | "2011"

# The language each rulebook is written in (a reader of it needs no translation).
RULEBOOK_LANGUAGE = {"000": "zh_Hant", "004": "ko"}
RULEBOOK_LABELS = {"000": "village.why.rulebook.big_box", "004": "village.why.rulebook.2011"}


@dataclass(frozen=True)
class Quote:
    rulebook: str  # "000" or "004"
    section: str  # the section as printed ("" where the note does not name one)
    text: str  # the sentence as printed
    translation: str  # its catalogue key


@dataclass(frozen=True)
class Note:
    why: str  # catalogue key of the explanation
    quotes: tuple[Quote, ...] = ()


# The Big Box rulebook on where training times are printed (quoted by two notes).
_HOURGLASS = "樹上繪有沙漏"

NOTES: dict[tuple[Edition, str], Note] = {
    ("big-box", "setup_cards"): Note("village.why.bb_setup_cards", (
        Quote("000", "階段1 - 填滿行動格",
              "遊戲設置卡會指示你在每輪開始時，從供應區拿取對應數量及顏色的方塊放入綠色布袋中",
              "village.why.bb_setup_cards.q1"),
        Quote("000", "階段1 - 填滿行動格", "此外，你還必須將所有瘟疫方塊放入布袋中",
              "village.why.bb_setup_cards.q2"),
        Quote("000", "階段1 - 填滿行動格", "遊戲設置卡上會指示每個行動格應該放置幾個方塊",
              "village.why.bb_setup_cards.q3"),
        Quote("000", "提示2",
              "在一輪開始時填滿行動格的影響力方塊數量，是可以與遊戲人數整除的",
              "village.why.bb_setup_cards.q4"),
        Quote("000", "", "「市集」行動格上永遠都只有1個方塊",
              "village.why.bb_setup_cards.q5"),
        Quote("000", "三人遊戲的範例 註記", "每輪加入布袋的方塊會多於抽出的方塊",
              "village.why.bb_setup_cards.q6"),
        Quote("000", "三人遊戲的範例 註記", "加入綠色布袋中的瘟疫方塊偶爾會少於6個",
              "village.why.bb_setup_cards.q7"),
    )),
    ("2011", "setup_cards"): Note("village.why.e2011_setup_cards", (
        Quote("004", "셋팅",
              "셋업카드 ... 인원수에 해당하는 1개를 영향력 큐브 일반공급처 옆에 둔다. "
              "나머지 2개는 게임에서 사용하지 않는다",
              "village.why.e2011_setup_cards.q1"),
        Quote("004", "새 큐브 공급",
              "셋업카드에 표시된 큐브수대로 일반공급처에서 큐브들을 가져다 녹색주머니 안에 넣고 "
              "표시된 위치마다 해당 수의 큐브를 뽑아 게임판에 배치한다. "
              "주머니 안에 남은 큐브는 그대로 둔다.",
              "village.why.e2011_setup_cards.q2"),
        Quote("000", "三人遊戲的範例 註記", "每輪加入布袋的方塊會多於抽出的方塊",
              "village.why.bb_setup_cards.q6"),
    )),
    ("2011", "player_colours"): Note("village.why.e2011_player_colours"),
    ("big-box", "stable_train_time"): Note("village.why.bb_stable_train_time", (
        Quote("000", "", _HOURGLASS, "village.why.hourglass"),)),
    ("2011", "stable_train_time"): Note("village.why.e2011_stable_train_time", (
        Quote("004", "", "사람그림 좌측 모래시계", "village.why.e2011_stable_train_time.q1"),)),
    ("big-box", "travel_cities"): Note("village.why.bb_travel_cities", (
        Quote("000", "最終計分 旅行", "1座城市 = 1分 ... 6座城市 = 18分",
              "village.why.bb_travel_cities.q1"),
        Quote("000", "遊戲配件", "30個圓形標記(紅色、黃色、藍色、白色、紫色各6個)",
              "village.why.bb_travel_cities.q2"),
        Quote("000", "旅行", "你只能在每座城市各放置一個圓形標記",
              "village.why.bb_travel_cities.q3"),
    )),
    ("2011", "travel_cities"): Note("village.why.e2011_travel_cities", (
        Quote("004", "최종 점수계산 여행", "1개=1점, ... 6개=18점",
              "village.why.e2011_travel_cities.q1"),
        Quote("004", "", "각 게임자는 도시마다 자신의 마커를 최대 1개만 올릴 수 있고",
              "village.why.e2011_travel_cities.q2"),
    )),
    ("big-box", "church_advance_grain"): Note("village.why.bb_church_advance_grain", (
        Quote("000", "彌撒 2",
              "要推進一名家族成員(向右移動)，你必須花費每個階級上方所示數量的穀物",
              "village.why.bb_church_advance_grain.q1"),
        Quote("000", "彌撒的範例", "將另外一袋穀物放回供應區，將他的編號2家族成員推進到第二階級",
              "village.why.bb_church_advance_grain.q2"),
        Quote("000", "彌撒的範例",
              "將2袋穀物放回供應區，並將他的藍色編號1家族成員推進(向右)到第三階級",
              "village.why.bb_church_advance_grain.q3"),
        Quote("000", "彌撒的範例",
              "奧利佛將4袋穀物放回供應區，將他的紅色編號2家族成員推進到第四階級",
              "village.why.bb_church_advance_grain.q4"),
        Quote("000", "", "麵包圖示只用於婚姻擴充",
              "village.why.bb_church_advance_grain.q5"),
    )),
    ("2011", "church_advance_grain"): Note("village.why.e2011_church_advance_grain", (
        Quote("004", "미사 B. 직위 높이기",
              "각 가족원마다 이동된 각 창문 사이에 표시된 곡식자루를 소비한다",
              "village.why.e2011_church_advance_grain.q1"),)),
    ("big-box", "karla_action_order"): Note("village.why.karla_action_order"),
    ("big-box", "karla_track_spaces"): Note("village.why.karla_track_spaces"),
    ("big-box", "karla_fate_after"): Note("village.why.karla_fate_after"),
}
# The same explanation in both editions.
for _edition in ("big-box", "2011"):
    NOTES[(_edition, "time_track_length")] = Note("village.why.time_track_length")
    NOTES[(_edition, "chronicle_sections")] = Note("village.why.chronicle_sections")
    NOTES[(_edition, "graveyard_slots")] = Note("village.why.graveyard_slots")
    NOTES[(_edition, "council_advance_time")] = Note("village.why.council_advance_time")
    NOTES[(_edition, "scriptorium_train_time")] = Note(
        "village.why.scriptorium_train_time",
        (Quote("000", "", _HOURGLASS, "village.why.hourglass"),))


def note_for(edition: Edition, key: str) -> Note | None:
    """The translated note of an estimate, or None (then the data file's English note is
    all there is; tests/app/village_table/test_estimate_notes.py keeps that from
    happening for any value the check shows)."""
    return NOTES.get((edition, key))
