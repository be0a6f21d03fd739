"""Phase 5: voting (seed L208-L215)."""

from __future__ import annotations

from collections.abc import Iterable

from companion.small_city.data import MAX_RESIDENTS_PER_RESIDENCE, UNIVERSITY_VOTES


def residence_votes(residents: int) -> int:
    """1 + 2 + ... + n for n residents in one residence (L210): 1, 3, 6, 10, 15."""
    if not 0 <= residents <= MAX_RESIDENTS_PER_RESIDENCE:
        raise ValueError(
            f"a residence holds 0 to {MAX_RESIDENTS_PER_RESIDENCE} residents, not {residents}")
    return residents * (residents + 1) // 2


def voting_phase(residences: Iterable[int], university_active: bool = False) -> int:
    """Votes a player gains in phase 5.

    Each residence is scored on its own, even when residences touch (L113: four R1 side by
    side are not an R4); an active University adds 3 (L212).
    """
    votes = sum(residence_votes(n) for n in residences)
    return votes + (UNIVERSITY_VOTES if university_active else 0)
