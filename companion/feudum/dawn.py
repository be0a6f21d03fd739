"""Epoch scoring at the dawn of each new epoch (seed L1002-L1016).

At the dawn of epochs 2-5 every player scores guild status, the outlands their tenants
work and their active regions; at the dawn of epochs 2, 4 and 5 a vassal (a player who
rules a fief) who has not covered the catapult spaces due so far loses their VP again,
every time (the penalty is cumulative).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pydantic import BaseModel, ConfigDict

from companion.feudum.data import (
    ACTIVE_REGIONS_VP,
    APPRENTICE_MIN_PLAYERS,
    EPOCHS,
    GUILD_STATUS_VP,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OUTLAND_EMPTY_VP,
    OUTLAND_WITH_RESOURCES_VP,
    REGIONS,
    SERVICE_TRACK,
    GuildStatus,
)
from companion.scoring.inputs import Count, StrictModel


def _check_players(players: int) -> None:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Feudum is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")


def _check_dawn_epoch(epoch: int) -> None:
    # Epoch I starts at set-up; only epochs II-V have a scored dawn.
    if not 2 <= epoch <= EPOCHS:
        raise ValueError(f"only the dawn of epochs 2 to {EPOCHS} is scored, not {epoch}")


def guild_status_vp(statuses: Iterable[GuildStatus], players: int) -> int:
    """Master 5, expert 3, apprentice 1 per guild; apprentice exists only with 4+ players."""
    _check_players(players)
    total = 0
    for status in statuses:
        if status == "apprentice" and players < APPRENTICE_MIN_PLAYERS:
            raise ValueError(f"there is no apprentice with fewer than {APPRENTICE_MIN_PLAYERS} "
                             "players")
        total += GUILD_STATUS_VP[status]
    return total


def outlands_vp(with_resources: int, empty: int) -> int:
    """4 per worked outland holding resources, 2 per empty one (scored before refilling)."""
    if with_resources < 0 or empty < 0:
        raise ValueError("outland counts must be 0 or more")
    return OUTLAND_WITH_RESOURCES_VP * with_resources + OUTLAND_EMPTY_VP * empty


def active_regions_vp(regions: int) -> int:
    """1..6 active regions -> 1/3/5/7/9/11 VP; none -> 0."""
    if not 0 <= regions <= len(REGIONS):
        raise ValueError(f"active regions must be 0 to {len(REGIONS)}, not {regions}")
    return ACTIVE_REGIONS_VP[regions]


def disloyalty_penalty(epoch: int, service_discs: int, vassal: bool) -> int:
    """VP a player loses at this dawn (a positive number; 0 if nothing is lost).

    Only vassals are checked, only at the dawn of epochs 2, 4 and 5.  Discs fill the
    catapult spaces in order, so `service_discs` covers the first spaces; every uncovered
    space whose epoch has come (this one or earlier) costs its value again.
    """
    _check_dawn_epoch(epoch)
    if service_discs < 0:
        raise ValueError("service discs must be 0 or more")
    if not vassal or epoch not in {e for e, _ in SERVICE_TRACK}:
        return 0
    return sum(vp for i, (due, vp) in enumerate(SERVICE_TRACK)
               if due <= epoch and i >= service_discs)


class DawnPlayer(StrictModel):
    """One player's position at a dawn."""

    name: str
    guild_statuses: list[GuildStatus] = []  # one entry per guild where they hold a status
    outlands_with_resources: Count = 0
    outlands_empty: Count = 0
    active_regions: Count = 0
    vassal: bool = False  # rules at least one fief right now
    service_discs: Count = 0  # own discs on the military service track


class DawnScore(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    guilds: int
    outlands: int
    regions: int
    disloyalty: int  # 0 or negative
    total: int


def dawn_scores(epoch: int, players: Sequence[DawnPlayer]) -> list[DawnScore]:
    """Everyone's VP change at the dawn of `epoch` (2-5), in seat order."""
    _check_dawn_epoch(epoch)
    _check_players(len(players))
    out: list[DawnScore] = []
    for p in players:
        guilds = guild_status_vp(p.guild_statuses, len(players))
        outlands = outlands_vp(p.outlands_with_resources, p.outlands_empty)
        regions = active_regions_vp(p.active_regions)
        disloyalty = -disloyalty_penalty(epoch, p.service_discs, p.vassal)
        out.append(DawnScore(name=p.name, guilds=guilds, outlands=outlands, regions=regions,
                             disloyalty=disloyalty,
                             total=guilds + outlands + regions + disloyalty))
    return out
