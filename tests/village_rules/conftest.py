"""Helpers for the Village rule tests: sessions with hand-entered draws and set positions.

Positions are built in two ways, both on purpose:
- the green bag is entered by hand (draw_mode="manual") so the board holds known cubes;
- where a test needs a position deep into a game (goods, members on the board, a nearly
  full chronicle), it writes `session.state` directly before executing commands. That is
  acceptable in unit tests; such writes go through the helpers below marked "Position:"
  or carry a "position" comment.
  Undo refolds from the event log, so the undo tests never write the state.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from companion.village.components import load_components
from companion.village.rules.bag import space_quota
from companion.village.rules.context import Ctx
from companion.village.rules.errors import RuleError
from companion.village.session import Outcome, VillageSession
from companion.village.setup import PlayerSetup, VillageSetup
from companion.village.state import Member

# The rulebook's own cast (Chris, Julie, Oliver) and colours (Chris is blue, Oliver red).
NAMES = ["Chris", "Julie", "Oliver", "Dana", "Emil"]
COLOURS = ["blue", "yellow", "red", "white", "purple"]
FILL_ORDER = ["brown", "pink", "orange", "green", "plague"]
# The time track's length (an estimate in the shipped data): position 0 is the first space
# right of the quill, so a marker at TRACK - 1 passes the quill with its next hourglass.
TRACK = int(load_components("big-box").v("time_track_length"))


def make_setup(n: int = 3, *, names: list[str] | None = None,
               colours: list[str] | None = None, **kw: Any) -> VillageSetup:
    names = names or NAMES[:n]
    colours = colours or COLOURS[:n]
    players = [PlayerSetup(name=a, colour=c) for a, c in zip(names, colours, strict=True)]
    return VillageSetup(players=players, **kw)


def new_session(n: int = 3, *, start_player: int | None = 0, compensation: bool = False,
                draw_mode: str = "manual", **kw: Any) -> VillageSession:
    """A game waiting for the first bag draw (manual mode) with a chosen start player and
    no seat compensation unless asked for."""
    setup = make_setup(n, start_player=start_player, compensation=compensation, **kw)
    return VillageSession.new(setup, draw_mode=draw_mode)


def quota(session: VillageSession) -> dict[str, int]:
    return space_quota(Ctx(session.state, session.comp))


def placements_for(session: VillageSession,
                   wanted: dict[str, list[str]] | None = None) -> dict[str, list[str]]:
    """A draw that fits the bag and the card: `wanted` spaces get exactly those cubes, the
    other spaces are dealt the bag's remaining cubes colour by colour, plague last."""
    wanted = dict(wanted or {})
    left = dict(session.state.bag)
    out: dict[str, list[str]] = {}
    for space, cubes in wanted.items():
        out[space] = list(cubes)
        for c in cubes:
            left[c] -= 1
    rotation = 0
    for space, n in quota(session).items():
        if space in out:
            continue
        got: list[str] = []
        while len(got) < n:
            colours = [c for c in FILL_ORDER if left.get(c, 0) > 0]
            influence = [c for c in colours if c != "plague"] or colours
            c = influence[rotation % len(influence)]
            rotation += 1
            left[c] -= 1
            got.append(c)
        out[space] = got
    return out


def fill(session: VillageSession, wanted: dict[str, list[str]] | None = None) -> Outcome:
    """Enter the pending bag draw by hand (see placements_for)."""
    return session.enter_draw({"placements": placements_for(session, wanted)})


def started(n: int = 3, wanted: dict[str, list[str]] | None = None,
            **kw: Any) -> VillageSession:
    """A game in round 1, the start player (seat 0) about to take a cube."""
    s = new_session(n, **kw)
    fill(s, wanted)
    return s


def take(session: VillageSession, space: str, colour: str) -> Outcome:
    return session.execute({"type": "take_cube", "space": space, "colour": colour})


def end_turn(session: VillageSession) -> Outcome:
    return session.execute({"type": "end_turn"})


@contextmanager
def refused(session: VillageSession, field: str) -> Iterator[pytest.ExceptionInfo[RuleError]]:
    """The command inside must be refused naming `field`, and change nothing. Gives the
    refusal (its value is there once the block is left)."""
    before = session.state.model_dump()
    n_events = len(session.events)
    with pytest.raises(RuleError) as info:
        yield info
    assert info.value.field == field, f"refused on {info.value.field!r}: {info.value}"
    assert session.state.model_dump() == before
    assert len(session.events) == n_events


# ---- position writers (direct state edits, acceptable in unit tests) --------------------
def give(session: VillageSession, i: int, *, cubes: dict[str, int] | None = None,
         goods: dict[str, int] | None = None, grain: int | None = None,
         coins: int | None = None, time: int | None = None) -> None:
    """Position: set a player's holdings; cubes come out of the supply."""
    st = session.state
    p = st.players[i]
    for colour, n in (cubes or {}).items():
        delta = n - p.cubes.get(colour, 0)
        st.supply[colour] -= delta
        p.cubes[colour] = n
    for g, n in (goods or {}).items():
        p.goods[g] = n
    if grain is not None:
        p.grain = grain
    if coins is not None:
        p.coins = coins
    if time is not None:
        p.time = time


def put(session: VillageSession, mid: str, loc: str) -> Member:
    """Position: move one member."""
    m = session.state.members[mid]
    m.loc = loc
    return m


def set_board(session: VillageSession, spaces: dict[str, list[str]]) -> None:
    """Position: the board holds exactly these cubes; cubes removed go back to the bag so
    every cube stays accounted for."""
    st = session.state
    for space, cubes in st.spaces.items():
        for c in cubes:
            st.bag[c] = st.bag.get(c, 0) + 1
        st.spaces[space] = []
    for space, cubes in spaces.items():
        for c in cubes:
            st.bag[c] -= 1
            st.spaces[space].append(c)


def fill_chronicle(session: VillageSession, section: str, leave_free: int = 0,
                   owner: int = 1) -> list[str]:
    """Position: fill a chronicle section with dead members of `owner` (from the supply,
    oldest generation last), leaving `leave_free` slots."""
    return _bury_from_supply(session, f"chronicle:{section}",
                             session.state.chronicle_free(section) - leave_free, owner)


def fill_graveyard(session: VillageSession, leave_free: int = 0, owner: int = 1) -> list[str]:
    """Position: fill the graveyard with dead members, leaving `leave_free` slots."""
    return _bury_from_supply(session, "graveyard",
                             session.state.graveyard_free() - leave_free, owner)


def _bury_from_supply(session: VillageSession, loc: str, count: int, owner: int) -> list[str]:
    st = session.state
    used: list[str] = []
    # Members of `owner` first from the supply, then any player's supply members.
    pool = sorted((m for m in st.members.values() if m.loc == "supply"),
                  key=lambda m: (m.owner != owner, -m.gen, m.id))
    assert len(pool) >= count, "not enough members in the supply for this position"
    for m in pool[:count]:
        m.loc = loc
        used.append(m.id)
    return used


def fill_all_chronicle(session: VillageSession, leave: dict[str, int] | None = None,
                       owner: int = 1) -> None:
    """Position: every chronicle section full but for `leave[section]` free slots."""
    leave = leave or {}
    for section in session.state.chronicle_capacity:
        fill_chronicle(session, section, leave.get(section, 0), owner)


def resolve_deaths(session: VillageSession) -> None:
    """Answer every waiting death with the first candidate."""
    from companion.village.rules.deaths import death_candidates

    st = session.state
    while st.pending and st.pending[0].kind == "death":
        who = st.pending[0].player
        assert who is not None
        first = death_candidates(Ctx(st, session.comp), who)[0]
        session.execute({"type": "choose_death", "member": first.id})
        st = session.state


def play_out_round(session: VillageSession, mass_items: list[str] | None = None) -> None:
    """Take every cube on the board in space order without acting, then enter the mass
    draw (monks by default) and skip buy-outs and advancement."""
    while session.state.phase == "turns" and session.state.cubes_on_board():
        st = session.state
        space = next(s for s, cubes in st.spaces.items() if cubes)
        take(session, space, sorted(st.spaces[space])[0])
        if session.state.market_day is not None:
            while session.state.market_day is not None:
                session.execute({"type": "market_pass"})
        end_turn(session)
        resolve_deaths(session)
    while session.state.phase in ("mass_buyout", "mass_advance"):
        st = session.state
        if st.pending and st.pending[0].kind == "chance":
            count = int(str(st.pending[0].detail.count))
            session.enter_draw({"items": mass_items or ["monk"] * count})
        elif st.phase == "mass_buyout":
            session.execute({"type": "mass_buyout", "members": []})
        else:
            session.execute({"type": "mass_advance", "moves": {}})


def acting(space: str, n: int = 3, colour: str = "brown", **kw: Any) -> VillageSession:
    """Round 1, Chris (seat 0) has just taken a `colour` cube from `space`."""
    s = new_session(n, **kw)
    fill(s, {space: [colour] * quota(s)[space]})
    take(s, space, colour)
    return s


def noted(notes: list[str], *fragments: str) -> bool:
    """Some table note mentions every fragment (the wording around them may change)."""
    return any(all(f in n for f in fragments) for n in notes)


def assert_conserved(session: VillageSession) -> None:
    """Every cube, member and customer tile is still somewhere."""
    st = session.state
    totals = st.cube_totals()
    assert {c: totals.get(c, 0) for c in ("brown", "pink", "orange", "green")} == dict.fromkeys(
        ("brown", "pink", "orange", "green"), 33)
    assert totals.get("plague", 0) == 6
    assert all(len(st.members_of(i)) == 11 for i in range(len(st.players)))
    assert st.customer_total() == 24
    assert all(n >= 0 for n in (*st.supply.values(), *st.bag.values()))
