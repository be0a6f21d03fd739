"""tie_groups explains what the scorers' ranks did."""

from __future__ import annotations

from companion.scoring.tiebreak import TieKey, tie_groups


def test_groups_and_deciding_keys() -> None:
    pollution = TieKey("pollution", [10, 12, 10, 5], higher_wins=False)
    money = TieKey("money", [3, 1, 3, 0], higher_wins=True)
    groups = tie_groups([40, 40, 40, 12], [pollution, money])
    assert len(groups) == 1
    group = groups[0]
    assert group.total == 40 and group.players == [0, 1, 2]
    assert group.used == ["pollution"]  # money could not split 0 and 2
    assert group.still_level == [[0, 2]]


def test_no_ties_and_out_players() -> None:
    assert tie_groups([3, 2, None, None], [TieKey("x", [0, 0, 0, 0], True)]) == []
    groups = tie_groups([5, 5], [])
    assert groups[0].used == [] and groups[0].still_level == [[0, 1]]
