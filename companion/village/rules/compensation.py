"""Seat compensation (rulebook: game setup — 遊戲設置 14, the suggested compensation for
the later seats): 2nd 1 grain, 3rd a random cube (drawn: chance.py), 4th a cube of choice,
5th an extra coin; and the answer choosing that cube."""

from __future__ import annotations

from companion.village.commands import ChooseCompensationCube
from companion.village.rules.context import Ctx
from companion.village.rules.errors import require
from companion.village.state import Pending


def step_compensation(ctx: Ctx) -> None:
    """Suggested seat compensation: 2nd 1 grain, 3rd a random cube, 4th a cube of choice,
    5th an extra coin (rulebook 遊戲設置 14)."""
    st = ctx.state
    kinds = ctx.comp.names("seat_compensation")
    n = len(st.players)
    for seat in range(1, n):
        player = (st.start_player + seat) % n
        kind = kinds[seat] if seat < len(kinds) else "none"
        p = st.players[player]
        if kind == "grain":
            p.grain += 1
            ctx.note("seat_grain", player=p.name, seat=seat + 1)
        elif kind == "coin":
            p.coins += 1
            ctx.note("seat_coin", player=p.name, seat=seat + 1)
        elif kind == "random_cube":
            st.pending.append(Pending(kind="chance", draw="compensation_cube", player=player))
        elif kind == "chosen_cube":
            st.pending.append(Pending(kind="compensation_cube", player=player))


def choose_compensation_cube(ctx: Ctx, cmd: ChooseCompensationCube) -> None:
    st = ctx.state
    require(bool(st.pending) and st.pending[0].kind == "compensation_cube", "colour",
            "no compensation cube is waiting to be chosen", key="rule.no_compensation_waiting")
    player = st.pending[0].player
    assert player is not None
    require(st.supply.get(cmd.colour, 0) > 0, "colour", f"no {cmd.colour} left in the supply",
            key="rule.colour_not_in_supply", params={"colour": cmd.colour})
    st.pending.pop(0)
    st.supply[cmd.colour] -= 1
    p = st.players[player]
    p.cubes[cmd.colour] = p.cubes.get(cmd.colour, 0) + 1
    ctx.note("compensation_chosen", player=p.name, colour=cmd.colour)
