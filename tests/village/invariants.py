"""Invariants that must hold after every event of any Village game (commands and chance
events alike): every cube, member and customer tile is somewhere it may be, and the
places that count members (chronicle, graveyard, church, council) never overflow."""

from __future__ import annotations

from collections import Counter
from typing import Any

from companion.village.components import ComponentData
from companion.village.engine import apply_event, start_state
from companion.village.locations import is_location
from companion.village.session import VillageSession, parse_body
from companion.village.state import PLAGUE, Member, VillageState

# Where a member may stand, by who owns it (Karla's are never born, trained or elected).
HUMAN_PLACES = {"supply", "farmyard", "bag", "graveyard", "removed", "workshop", "council",
                "church", "travel", "chronicle"}
KARLA_PLACES = {"karla", "bag", "graveyard", "removed", "church", "chronicle"}


def location_problem(m: Member, state: VillageState, comp: ComponentData) -> str | None:
    """Why this member's location is impossible, or None."""
    place, _, arg = m.loc.partition(":")
    karla = state.players[m.owner].kind == "karla"
    if place not in (KARLA_PLACES if karla else HUMAN_PLACES):
        return f"{m.id} ({'Karla' if karla else 'human'}) cannot be at {m.loc}"
    levels = {"council": comp.n("council_levels"), "church": 4,
              "travel": comp.n("travel_cities")}
    allowed: dict[str, set[str]] = {
        "workshop": set(comp.v("workshop_goods")),
        "chronicle": set(state.chronicle_capacity),
        "karla": {"side", "building"},
        **{p: {str(i) for i in range(1, n + 1)} for p, n in levels.items()},
    }
    if place in allowed:
        if arg not in allowed[place]:
            return f"{m.id}: no such {place} spot {arg!r}"
    elif arg:
        return f"{m.id}: {place} takes no argument ({m.loc})"
    return None


def check_invariants(state: VillageState, comp: ComponentData) -> None:
    totals = state.cube_totals()
    for colour in comp.v("influence_colours"):
        assert totals.get(colour, 0) == comp.v("cubes_per_colour"), (colour, totals)
    assert totals.get(PLAGUE, 0) == comp.v("plague_cubes"), totals
    assert all(n >= 0 for n in state.bag.values()) and all(n >= 0 for n in state.supply.values())
    for space, cubes in state.spaces.items():
        assert all(c in totals for c in cubes), space

    # Members: each player owns exactly the printed generations, each at a valid spot.
    per_gen = Counter({int(g): int(n) for g, n in comp.v("members_per_generation").items()})
    for mid, m in state.members.items():
        assert m.id == mid and 0 <= m.owner < len(state.players), mid
        assert is_location(m.loc), (mid, m.loc)  # well-formed: place and spot
        problem = location_problem(m, state, comp)
        assert problem is None, problem
    for i, p in enumerate(state.players):
        assert Counter(m.gen for m in state.members_of(i)) == per_gen, p.name
        assert p.grain <= comp.v("grain_max"), p.name
        assert min(p.coins, p.grain, p.prestige, *p.cubes.values(), *p.goods.values(),
                   0) >= 0, p.name
        assert 0 <= p.time < comp.v("time_track_length")
        assert len(set(p.cities)) == len(p.cities), p.name
        assert p.deaths_pending >= 0, p.name
        queued = sum(1 for x in state.pending if x.kind == "death" and x.player == i)
        assert queued <= p.deaths_pending, (p.name, queued, p.deaths_pending)

    # Places that count members: occupancy never beyond the slots there are.
    by_loc = Counter(m.loc for m in state.members.values())
    for section, cap in state.chronicle_capacity.items():
        assert by_loc[f"chronicle:{section}"] == state.chronicle_used(section) <= cap, section
    assert by_loc["graveyard"] == len(state.members_in("graveyard")) <= state.graveyard_capacity
    if state.chronicle_total_free() == 0 or state.graveyard_free() == 0:
        assert state.end is not None, "the last chronicle or graveyard slot ends the game"

    assert state.customer_total() == comp.v("customer_tiles")
    assert state.customer_stack >= 0
    # Front spaces closed for this player count (printed on the board) hold no customer,
    # all game: a refill or a correction never puts one there.
    open_front = comp.front_spaces(len(state.players))
    assert not any(state.market_front[open_front:]), (
        f"a customer on a front space closed for {len(state.players)} players: "
        f"{state.market_front}")
    if state.mass is not None:
        assert len(state.mass.bought) <= comp.n("mass_draw")
        assert all(x in state.members for x in state.mass.bought)

    if state.karla is not None:
        karla = state.karla
        levels = [m.level for m in state.members_in("church", karla.player)]
        assert len(levels) == len(set(levels)), "Karla has two members on one church level"
        for side, up in karla.fate.items():
            q = karla.quill[side]
            if q >= 0:
                assert up[q], "a revealed quill must be face up"
            else:
                assert up.count(True) <= 2, "with no quill shown, one tile is still face down"


def check_every_event(session: VillageSession) -> VillageState:
    """Fold the session's log from the start, checking the invariants after every single
    event (chance events included, not only after each command); returns the fold."""
    state = start_state(session.setup, session.comp)
    check_invariants(state, session.comp)
    for ev in session.events:
        body: Any = parse_body(ev["body"])
        apply_event(state, session.comp, body)
        try:
            check_invariants(state, session.comp)
        except AssertionError as exc:
            raise AssertionError(f"after event {ev['seq']} {ev['body']}: {exc}") from exc
    return state
