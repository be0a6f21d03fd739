"""Printed quantities the screens show, answered by the engine's read side (issue 21: the
app computes no printed value): where a time marker stands against the quill, and each
chronicle section's and the graveyard's open, used, free and blocked slots."""

from __future__ import annotations

import pytest

from companion.village.changes import changes
from companion.village.components import load_components, slot_open
from companion.village.read import Reader, Slots, TimeMarker
from companion.village.rules.context import Ctx
from companion.village.rules.time_track import passes_after, spend_time

from .conftest import TRACK, give, new_session, put, started


# ---- the time track ---------------------------------------------------------------------------
def test_a_new_games_marker_stands_on_the_first_space_right_of_the_quill() -> None:
    """000 遊戲設置 4: 將你的時間標記放在你農場右上角的時間軌，放在羽毛筆右邊的第一格空格."""
    s = new_session(3)
    assert Reader(s.state, s.comp).time_marker(0) == TimeMarker(
        position=0, space=1, length=TRACK, to_quill=TRACK)


@pytest.mark.parametrize("position", [0, 3, TRACK - 2, TRACK - 1])
def test_spending_the_spaces_to_the_quill_passes_it_one_less_does_not(position: int) -> None:
    """000 家族成員過世: 當你的時間標記越過羽毛筆時，你最年長的其中一名家族成員就會過世 — the
    marker's `to_quill` is exactly the hourglasses that take it past the quill."""
    s = started(3, {})
    give(s, 0, time=position)
    marker = Reader(s.state, s.comp).time_marker(0)
    assert marker.position == position and marker.space == position + 1
    assert marker.length == TRACK and marker.to_quill == TRACK - position
    assert passes_after(TRACK, position, marker.to_quill - 1) == 0
    assert passes_after(TRACK, position, marker.to_quill) == 1
    assert passes_after(TRACK, position, marker.to_quill + TRACK) == 2
    # The rule that moves the marker agrees: the death is owed on exactly that hourglass.
    ctx = Ctx(s.state, s.comp)
    assert spend_time(ctx, 0, marker.to_quill - 1) == 0
    assert s.state.players[0].deaths_pending == 0
    assert spend_time(ctx, 0, 1) == 1
    assert s.state.players[0].time == 0 and s.state.players[0].deaths_pending == 1


def test_an_actions_change_carries_the_readers_marker() -> None:
    s = started(3, {"crafts": ["plague", "brown", "brown", "brown"]})
    give(s, 0, time=TRACK - 1)
    before = s.state
    notes = s.execute({"type": "take_cube", "space": "crafts", "colour": "plague"}).note_data
    change = changes(before, s.state, s.comp, notes)[0]
    assert change.marker == Reader(s.state, s.comp).time_marker(0)
    assert change.marker is not None and change.marker.space == 2
    assert change.to_quill == TRACK - 1 and change.time == 1


# ---- the chronicle and the graveyard ----------------------------------------------------------
def test_three_players_block_the_slots_marked_4_5_and_5() -> None:
    """000 遊戲設置 7, 3人遊戲: 將沒被用到的家族成員放在編年史及公墓中每個標有4-5或5的空格上."""
    s = started(3, {})
    put(s, "red-1a", "chronicle:farm")
    put(s, "blue-1a", "graveyard")
    reader = Reader(s.state, s.comp)
    slots = reader.chronicle_slots()
    printed = s.comp.number_lists("chronicle_sections")
    assert list(slots) == list(s.state.chronicle_capacity)
    for section, marks in printed.items():
        blocked = sum(1 for m in marks if m > 3)
        used = 1 if section == "farm" else 0
        assert slots[section] == Slots(capacity=len(marks) - blocked, used=used,
                                       blocked=blocked)
    assert slots["farm"].free == slots["farm"].capacity - 1
    graves = s.comp.numbers("graveyard_slots")
    blocked = sum(1 for m in graves if m > 3)
    assert blocked == 2  # the shipped estimate: the last three marked 3-5, 4-5, 5
    assert reader.graveyard_slots() == Slots(capacity=len(graves) - blocked, used=1,
                                             blocked=blocked)
    assert reader.graveyard_slots().free == s.state.graveyard_free()


def test_two_players_block_3_5_4_5_and_5_five_players_nothing() -> None:
    """000 遊戲設置 7, 2人遊戲: 每個標有3-5、4-5或5的空格上; 5 players: no unused colour."""
    two, five = new_session(2), new_session(5)
    for section, marks in two.comp.number_lists("chronicle_sections").items():
        assert Reader(two.state, two.comp).chronicle_slots()[section].blocked == \
            sum(1 for m in marks if m > 2)
        assert Reader(five.state, five.comp).chronicle_slots()[section].blocked == 0
    assert Reader(five.state, five.comp).graveyard_slots().blocked == 0


def test_2011_four_players_a_5_mark_blocks_nothing() -> None:
    """004 blocks spaces only with fewer than 4 players (「4인 미만시 … 인원수보다 큰 숫자칸에」):
    the 2011 data reuse the Big Box "5" marks, which no 2011 table blocks."""
    s = new_session(4, edition="2011")
    reader = Reader(s.state, s.comp)
    assert all(slots.blocked == 0 for slots in reader.chronicle_slots().values())
    assert reader.graveyard_slots().blocked == 0
    counts = load_components("2011").numbers("player_counts")
    assert slot_open(5, 4, counts) and not slot_open(4, 3, counts)


def test_slot_open_reads_the_mark_as_the_smallest_player_count() -> None:
    counts = load_components("big-box").numbers("player_counts")
    assert [slot_open(m, 3, counts) for m in (2, 3, 4, 5)] == [True, True, False, False]
    assert [slot_open(m, 5, counts) for m in (2, 3, 4, 5)] == [True] * 4


# ---- the market's front spaces ----------------------------------------------------------------
@pytest.mark.parametrize(("players", "used"), [(2, 3), (3, 4), (4, 5), (5, 5)])
def test_the_front_spaces_a_player_count_leaves_empty(players: int, used: int) -> None:
    """000 遊戲設置 6: 5或4人遊戲時：10個空格各放置一個板塊; 3人遊戲時：標示4-5的空格不要放置板塊;
    2人遊戲時：標示3-5以及標示4-5的空格不要放置板塊 — with the queue's 5, the front (blue)
    spaces used are 5/5/4/3."""
    s = new_session(players)
    front = Reader(s.state, s.comp).market_front_open()
    assert front == [True] * used + [False] * (len(s.state.market_front) - used)
    assert len(front) == 5
    # The setup leaves exactly the closed spaces empty.
    assert [full for full, is_open in zip(s.state.market_front, front, strict=True)
            if not is_open] == [False] * (5 - used)


# ---- the mass's buy-outs and the council's top level ------------------------------------------
def test_a_buy_out_costs_the_printed_coin_per_member() -> None:
    """000 彌撒 1: 每拿出一名自己的家族成員就要花費1枚金幣."""
    s = new_session(3)
    reader = Reader(s.state, s.comp)
    cost = s.comp.n("mass_buyout_cost")
    assert cost == 1
    assert [reader.buyout_price(n) for n in range(4)] == [0, cost, 2 * cost, 3 * cost]


def test_only_a_council_member_below_the_top_level_may_move_up() -> None:
    """000 議會 b: 將一名已經在議會中的家族成員向右移動一階 — the council has four levels
    (第一到第四階級); a member on the fourth has no level to move to."""
    s = started(3, {})
    top = s.comp.n("council_levels")
    put(s, "blue-1a", "council:1")
    put(s, "blue-1b", f"council:{top - 1}")
    put(s, "blue-1c", f"council:{top}")
    reader = Reader(s.state, s.comp)
    assert reader.council_can_advance("blue-1a") and reader.council_can_advance("blue-1b")
    assert not reader.council_can_advance("blue-1c")
    assert not reader.council_can_advance("blue-1d")  # on the farmyard, not the council
    assert not reader.council_can_advance("no-such-member")
