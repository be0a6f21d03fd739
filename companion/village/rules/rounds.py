"""The automatic steps between commands (rulebook: game setup, the round, the end of a
turn, mass): setup draws, new rounds, turn order, masses, Karla's moves. The flow names the
steps; each step's rule is in its own module (seat compensation: compensation.py; the
marker-coin's return: marker_coin.py; Karla: karla.py)."""

from __future__ import annotations

from companion.village.rules import karla
from companion.village.rules.bag import fill_bag
from companion.village.rules.compensation import step_compensation
from companion.village.rules.context import Ctx
from companion.village.rules.deaths import queue_deaths
from companion.village.rules.game_end import final_order
from companion.village.rules.marker_coin import return_marker_coin
from companion.village.rules.mass import majority_bonus, mass_draw_step, start_mass
from companion.village.rules.turns import next_human
from companion.village.state import Pending


def step_start_player(ctx: Ctx) -> None:
    ctx.state.pending.append(Pending(kind="chance", draw="start_player"))


def step_new_round(ctx: Ctx) -> None:
    st = ctx.state
    if st.round > 0:
        if st.solo:
            # Before the bag is filled a marker taken but not paid goes back to the council:
            # an unpaid marker-coin leaves the holder's coins (rulebook 單人遊戲 註記). A paid
            # one went to the supply: reading "marker_coin_return" "unused_only", it stays
            # there for the rest of the game ("marker_coin_paid_later_rounds"); legacy
            # "every_round" puts it back on the council too.
            every_round = ctx.reading("marker_coin_return") == "every_round"
            paid = st.next_start_spent and st.next_start_holder is None
            if st.marker_coin_holder() is not None:
                return_marker_coin(ctx)
            elif st.next_start_holder is not None or (paid and every_round):
                ctx.note("next_start_back")
            st.next_start_holder = None
            st.next_start_spent = paid and not every_round
        elif st.next_start_holder is not None:
            st.start_player = st.next_start_holder
            st.next_start_holder = None
            ctx.note("new_start_player", player=st.players[st.start_player].name)
        if st.karla is not None:
            karla.reset_board(ctx)
    st.round += 1
    st.round_turns = 0
    st.phase = "turns"
    st.stage = "take"
    st.current = st.start_player
    fill_bag(ctx)
    st.pending.append(Pending(kind="chance", draw="bag"))


def step_resolve_deaths(ctx: Ctx) -> None:
    queue_deaths(ctx, ctx.state.current)


def step_advance_turn(ctx: Ctx) -> None:
    st = ctx.state
    st.space_taken = None
    st.action_done = False
    if st.end is not None:
        if not st.end.order_set:
            st.end.final_order = final_order(ctx)
            st.end.order_set = True
            names = ", ".join(st.players[i].name for i in st.end.final_order)
            if names:
                ctx.note("final_turns", players=names)
            else:
                ctx.note("no_final_turns")
        if st.end.final_order:
            st.current = st.end.final_order.pop(0)
            st.stage = "take"
        else:
            st.flow.insert(0, "final_mass")
        return
    if st.cubes_on_board() == 0:
        st.flow.insert(0, "round_mass")
        return
    st.current = next_human(ctx, st.current)
    st.stage = "take"


def step_round_mass(ctx: Ctx) -> None:
    start_mass(ctx, final=False)


def step_final_mass(ctx: Ctx) -> None:
    assert ctx.state.end is not None
    ctx.state.end.mass_held = True
    start_mass(ctx, final=True)


def step_mass_draw(ctx: Ctx) -> None:
    mass_draw_step(ctx)


def step_mass_bonus(ctx: Ctx) -> None:
    st = ctx.state
    majority_bonus(ctx)
    final = st.mass is not None and st.mass.final
    st.mass = None
    st.mass_advanced = False
    if final:
        return_marker_coin(ctx)  # a marker is no coin: it never scores
        st.phase = "scoring"
        ctx.note("final_scoring")
    else:
        st.flow.insert(0, "new_round")


def _karla_react(ctx: Ctx) -> None:
    karla.step_react(ctx)


def _karla_take(ctx: Ctx) -> None:
    karla.karla_take(ctx)


STEPS = {
    "start_player": step_start_player,
    "compensation": step_compensation,
    "new_round": step_new_round,
    "resolve_deaths": step_resolve_deaths,
    "advance_turn": step_advance_turn,
    "round_mass": step_round_mass,
    "final_mass": step_final_mass,
    "mass_draw": step_mass_draw,
    "mass_bonus": step_mass_bonus,
    "karla_take": _karla_take,
    "karla_react": _karla_react,
}


def progress(ctx: Ctx) -> None:
    """Run automatic steps until the game waits for a person or a draw."""
    st = ctx.state
    while not st.pending and st.flow:
        if st.market_day is not None:
            return
        step = st.flow.pop(0)
        STEPS[step](ctx)
