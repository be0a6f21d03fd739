"""Property tests: rankings agree with totals and tie-breaks; promise sums stay in bounds;
the empire search finds the same best as trying every fief one by one."""

from __future__ import annotations

import itertools
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.feudum.data import EMPIRE_SET_SIZE, EMPIRE_SET_VP, LOCATION_TYPES
from companion.feudum.final import empire
from companion.feudum.scoring import score_payload as feudum_score
from companion.small_city.scoring import score_payload as small_city_score

counts = st.integers(min_value=0, max_value=60)
promise = st.fixed_dictionaries({"value": st.sampled_from([6, 12, 18]),
                                 "fulfilled": st.booleans()})


@st.composite
def small_city_payloads(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.integers(min_value=2, max_value=4))
    players = [
        {"name": f"P{i}", "votes": draw(counts),
         # Keep pollution mostly low but sometimes past 100 to cover elimination.
         "pollution": draw(st.one_of(st.integers(0, 30), st.integers(95, 120))),
         "money": draw(st.integers(0, 5)),
         "promises": draw(st.lists(promise, max_size=3))}
        for i in range(n)
    ]
    return {"game": "small-city", "players": players}


@settings(max_examples=200, deadline=None)
@given(small_city_payloads())
def test_small_city_ranks_follow_total_then_pollution_then_money(payload: dict[str, Any]) -> None:
    sheet = small_city_score(payload)
    inputs = payload["players"]
    for p, raw in zip(sheet.players, inputs, strict=True):
        assert p.eliminated == (raw["pollution"] >= 100)
        assert (p.rank is None) == p.eliminated
        promises = p.categories["promises"]
        assert -12 * len(raw["promises"]) <= promises <= 18 * len(raw["promises"])
    live = [(p, raw) for p, raw in zip(sheet.players, inputs, strict=True) if not p.eliminated]
    for (a, ra), (b, rb) in itertools.permutations(live, 2):
        assert a.total is not None and b.total is not None
        assert a.rank is not None and b.rank is not None
        key_a = (a.total, -ra["pollution"], ra["money"])
        key_b = (b.total, -rb["pollution"], rb["money"])
        if key_a > key_b:
            assert a.rank < b.rank
        elif key_a == key_b:
            assert a.rank == b.rank
    ranks = sorted(p.rank for p, _ in live if p.rank is not None)
    for i, r in enumerate(ranks):
        # Competition ranking: a rank is 1 + the number of players strictly ahead.
        assert r == 1 + sum(1 for other in ranks if other < r)
        assert r <= i + 1
    assert sheet.winners == [p.name for p, _ in live if p.rank == 1]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 40), st.integers(0, 3)), min_size=2, max_size=5))
def test_feudum_winners_have_the_best_total_and_sulfur(rows: list[tuple[int, int]]) -> None:
    payload = {"game": "feudum", "players": [
        {"name": f"P{i}", "vp": vp, "sulfur": sulfur} for i, (vp, sulfur) in enumerate(rows)]}
    sheet = feudum_score(payload)
    best = max(rows)
    assert sheet.winners == [f"P{i}" for i, row in enumerate(rows) if row == best]


def _brute_force_bonus(own: dict[str, int], fiefs: int) -> int:
    # Try every fief on every type, one by one (4**fiefs ways).
    best = 0
    for choice in itertools.product(LOCATION_TYPES, repeat=fiefs):
        sets = sum(1 for t in LOCATION_TYPES if own.get(t, 0) + choice.count(t) >= EMPIRE_SET_SIZE)
        best = max(best, sets)
    return EMPIRE_SET_VP * best


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 5), st.integers(0, 5), st.integers(0, 5), st.integers(0, 6))
def test_empire_search_matches_brute_force(outpost: int, farm: int, town: int, fief: int) -> None:
    base = outpost + farm + town + 3 * fief
    bonus = _brute_force_bonus({"outpost": outpost, "farm": farm, "town": town}, fief)
    result = empire(outpost, farm, town, fief)
    assert result.points == base + bonus
    assert sum(result.fief_assignment.values()) == fief
