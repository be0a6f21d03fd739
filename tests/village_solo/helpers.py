"""Shared builders for the solo (Karla) tests.

Some tests put the game into a precise position by mutating `session.state` directly
(acceptable in unit tests): every such helper keeps the cube totals intact by moving
cubes between the supply and the board/Karla's board, so conservation checks stay valid.
Tests that mutate the state never undo afterwards (a refold would drop the mutation).
"""

from __future__ import annotations

import random
from typing import Any

from companion.village.components import ComponentData
from companion.village.rules.bag import draw_placements
from companion.village.rules.context import Ctx
from companion.village.rules.karla import order_from
from companion.village.session import DrawMode, KarlaPolicy, Outcome, VillageSession
from companion.village.setup import PlayerSetup, VillageSetup
from companion.village.state import PLAGUE, VillageState

HUMAN = 0
KARLA = 1
INFLUENCE = ("brown", "pink", "orange", "green")

# A legal first bag draw for the 2-player card (4 of each colour + 6 plague in the bag;
# 3 green and 1 orange stay in it). Chosen so that the rulebook's market/council example
# can be reached by plain play: the only green is the market cube.
FIRST_DRAW: dict[str, list[str]] = {
    "market": ["green"],
    "travel": ["plague", "plague"],
    "council": ["brown", "plague", "orange"],
    "church": ["brown", "pink", "plague"],
    "family": ["orange", "pink", "plague"],
    "harvest": ["brown", "pink", "plague"],
    "crafts": ["brown", "pink", "orange"],
}


def solo_setup(variant: str = "standard", seed: int = 0) -> VillageSetup:
    return VillageSetup(players=[PlayerSetup(name="Chris", colour="blue")], solo=True,
                        karla_colour="red", karla_variant=variant, seed=seed)


def new_session(variant: str = "standard", policy: KarlaPolicy = "ask",
                draw_mode: DrawMode = "manual", seed: int = 0,
                first_draw: dict[str, list[str]] | None = FIRST_DRAW) -> VillageSession:
    """A solo session; in manual mode the first bag draw is entered (unless None)."""
    session = VillageSession.new(solo_setup(variant, seed), draw_mode=draw_mode,
                                 karla_policy=policy)
    if draw_mode == "manual" and first_draw is not None:
        session.enter_draw({"placements": first_draw})
    return session


def ctx_of(session: VillageSession) -> Ctx:
    return Ctx(session.state, session.comp)


def enter_bag_draw(session: VillageSession, seed: int = 0) -> None:
    """Enter a legal bag draw for whatever the bag holds now (a later round)."""
    placements = draw_placements(ctx_of(session), random.Random(seed))
    session.enter_draw({"placements": placements})


def set_board(session: VillageSession, spaces: dict[str, list[str]]) -> None:
    """Mutation: the action spaces hold exactly `spaces` (others empty). Cubes come from
    and go back to the supply, so the totals per colour do not change."""
    st = session.state
    for cubes in st.spaces.values():
        for c in cubes:
            st.supply[c] += 1
        cubes.clear()
    for space, cubes in spaces.items():
        for c in cubes:
            assert st.supply[c] > 0, f"no {c} left in the supply for the test position"
            st.supply[c] -= 1
            st.spaces[space].append(c)


def put_karla_last(session: VillageSession, pos: int, colour: str = "brown",
                   from_space: str = "harvest") -> None:
    """Mutation: Karla's last placed cube sits on her space `pos` (taken from the supply),
    so her next cube goes on `pos + 1`."""
    st = session.state
    assert st.karla is not None
    st.supply[colour] -= 1
    st.karla.track[pos].append(f"{colour}@{from_space}")
    st.karla.last_space = pos


def fate_position(comp: ComponentData, side: str, tile: int) -> int:
    """Karla's board space whose cube passes the given fate tile (from the component data:
    the layout is an estimate, so the tests follow the data rather than hard-code it)."""
    return int(comp.v("karla_fate_after")[side][tile])


def plain_position(comp: ComponentData) -> int:
    """A space on Karla's board that passes no fate tile."""
    fate = {int(p) for ps in comp.v("karla_fate_after").values() for p in ps}
    return next(p for p in range(comp.n("karla_track_spaces")) if p not in fate)


def clockwise(session: VillageSession, space: str) -> list[str]:
    return order_from(ctx_of(session), space)


def cmd(type_: str, **kw: Any) -> dict[str, Any]:
    return {"type": type_, **kw}


def take(session: VillageSession, space: str, colour: str, *, end: bool = True) -> list[str]:
    """Your take; with `end` (the default) also your end of turn, after which Karla takes
    (rulebook: her cube follows your turn). Returns the notes of both."""
    notes = session.execute(cmd("take_cube", space=space, colour=colour)).notes
    if end and session.state.market_day is None and not session.state.pending:
        notes += session.execute(cmd("end_turn")).notes
    return notes


def karla_track(state: VillageState) -> list[list[str]]:
    assert state.karla is not None
    return state.karla.track


def karla_cubes(state: VillageState) -> list[str]:
    return [e for space in karla_track(state) for e in space]


def check_invariants(state: VillageState, comp: ComponentData) -> None:
    """The invariants every solo position must satisfy."""
    totals = state.cube_totals()
    for colour in INFLUENCE:
        assert totals.get(colour) == comp.n("cubes_per_colour"), (colour, totals)
    assert totals.get(PLAGUE) == comp.n("plague_cubes"), totals
    per_player = sum(int(n) for n in comp.v("members_per_generation").values())
    for i in range(len(state.players)):
        assert len(state.members_of(i)) == per_player
    assert state.customer_total() == comp.n("customer_tiles")
    karla = state.karla
    assert karla is not None
    for side, tiles in karla.fate.items():
        assert len(tiles) == 3
        q = karla.quill[side]
        if q >= 0:
            assert tiles[q], f"the {side} quill index points at a face-down tile"
        else:
            assert sum(tiles) <= 2, f"{side}: three tiles face up without the quill"
    levels = [m.level for m in state.members_in("church", KARLA)]
    assert len(levels) == len(set(levels)), f"Karla has two members on one level: {levels}"
    assert -1 <= karla.last_space < len(karla.track)


def end_round(session: VillageSession, bag_seed: int = 0) -> None:
    """Finish the current round quickly: mutation leaves one cube on the board (harvest),
    you take it (Karla finds nothing), the mass draws four monks, and the next round's bag
    draw is entered. Only for manual-draw sessions with no Karla member in the bag, called
    at the start of one of your turns."""
    set_board(session, {"harvest": ["brown"]})
    take(session, "harvest", "brown")  # ... and your turn ends: Karla finds no cube
    while session.state.phase == "mass_buyout" and not session.state.pending:
        session.execute(cmd("mass_buyout", members=[]))
    session.enter_draw({"items": ["monk"] * 4})
    while session.state.phase == "mass_advance" and not session.state.pending:
        session.execute(cmd("mass_advance", moves={}))
    enter_bag_draw(session, bag_seed)


def resolve_fates(session: VillageSession) -> None:
    """Enter every waiting fate flip: blank where the rules allow it, else the quill."""
    while session.state.pending and session.state.pending[0].draw == "fate":
        pend = session.state.pending[0]
        side = str(pend.detail.side)
        karla = session.state.karla
        assert karla is not None
        must_quill = karla.quill[side] < 0 and karla.fate[side].count(False) == 1
        session.enter_draw({"side": side, "tile": pend.detail.tile, "quill": must_quill})


def reach_mass(session: VillageSession) -> None:
    """Mutation: one cube left (harvest); you take it and end the turn (Karla finds no
    cube): the mass starts."""
    set_board(session, {"harvest": ["brown"]})
    take(session, "harvest", "brown")


def serve(session: VillageSession, **kw: Any) -> Outcome:
    """The market day's seller serves a customer, paying one grain for its demand (the
    tiles' demands are the table's; rules version 3 checks a customer is paid in goods or
    grain). Mutation: the seller gets that grain first."""
    md = session.state.market_day
    assert md is not None
    session.state.players[md.seller].grain += 1
    return session.execute(cmd("market_serve", pay={"grain": 1}, **kw))
