"""Phase 1: picking special action cards laid out in a circle (seed L65-L72).

Positions are 0..7 around the circle.  The mayor picks free.  Each next player picks free
if the card is next to the previous player's pick, otherwise pays $1 per *unpicked* card
skipped between the previous pick and the new one (L68: picked cards are not counted).

The seed names no direction: both neighbours are free ("相鄰的兩張卡片之一", L67) and the
skipping is counted on a circle, so the cost is the cheaper way round.
"""

from __future__ import annotations

from collections.abc import Collection

from companion.small_city.data import ACTION_CIRCLE_SIZE, SKIP_COST_PER_CARD


def _skipped_one_way(start: int, target: int, picked: Collection[int], step: int, n: int) -> int:
    skipped = 0
    pos = (start + step) % n
    while pos != target:
        if pos not in picked:
            skipped += 1
        pos = (pos + step) % n
    return skipped


def pick_cost(
    previous: int | None,
    target: int,
    picked: Collection[int] = (),
    circle_size: int = ACTION_CIRCLE_SIZE,
) -> int:
    """Money the next player pays to take the card at `target`.

    `previous` is the position the previous player just took (None for the mayor, who
    picks free); `picked` holds every position already taken this round (the previous
    pick may be in it or not).
    """
    for name, pos in (("target", target), ("previous", previous)):
        if pos is not None and not 0 <= pos < circle_size:
            raise ValueError(f"{name} must be a position 0 to {circle_size - 1}, not {pos}")
    if target in picked or target == previous:
        raise ValueError(f"card {target} is already taken")
    if previous is None:
        return 0
    taken = {*picked, previous}
    clockwise = _skipped_one_way(previous, target, taken, +1, circle_size)
    counter = _skipped_one_way(previous, target, taken, -1, circle_size)
    return SKIP_COST_PER_CARD * min(clockwise, counter)


def affordable_picks(
    previous: int | None,
    picked: Collection[int],
    money: int,
    circle_size: int = ACTION_CIRCLE_SIZE,
) -> dict[int, int]:
    """Every free position the player can pay for (L68), mapped to its cost."""
    out: dict[int, int] = {}
    for pos in range(circle_size):
        if pos in picked or pos == previous:
            continue
        cost = pick_cost(previous, pos, picked, circle_size)
        if cost <= money:
            out[pos] = cost
    return out
