"""Invariants that must hold after every event of any Village game."""

from __future__ import annotations

from companion.village.components import ComponentData
from companion.village.state import PLAGUE, VillageState


def check_invariants(state: VillageState, comp: ComponentData) -> None:
    totals = state.cube_totals()
    for colour in comp.v("influence_colours"):
        assert totals.get(colour, 0) == comp.v("cubes_per_colour"), (colour, totals)
    assert totals.get(PLAGUE, 0) == comp.v("plague_cubes"), totals
    per_player = sum(comp.v("members_per_generation").values())
    for i, p in enumerate(state.players):
        assert len(state.members_of(i)) == per_player, p.name
        assert p.grain <= comp.v("grain_max"), p.name
        assert min(p.coins, p.grain, p.prestige, *p.cubes.values(), *p.goods.values(),
                   0) >= 0, p.name
        assert 0 <= p.time < comp.v("time_track_length")
    assert state.customer_total() == comp.v("customer_tiles")
    assert state.chronicle_total_free() >= 0 and state.graveyard_free() >= 0
    for sec in state.chronicle_capacity:
        assert state.chronicle_free(sec) >= 0, sec
    assert all(n >= 0 for n in state.bag.values()) and all(n >= 0 for n in state.supply.values())
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
