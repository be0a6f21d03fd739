"""Phase 3, the progress die, and phase 4's epoch trigger (seed L981-L998).

The die is a chance event: the caller rolls it (or the app asks the table) and passes the
face VALUE here; nothing in this module is random.  Landscape stacks are given per region
as the epochs of their tiles, top first (the stacks are built in descending order, L156, so
epoch I tiles lie on top); an empty stack shows the epoch V space beneath it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pydantic import BaseModel, ConfigDict

from companion.feudum.data import EPOCH_TRIGGER, EPOCHS, PROGRESS_DIE_FACES, REGIONS

Stacks = Mapping[str, Sequence[int]]


def _check_stacks(stacks: Stacks) -> None:
    if set(stacks) != set(REGIONS):
        raise ValueError(f"give one stack for each region: {', '.join(REGIONS)}")
    for region, tiles in stacks.items():
        if any(not 1 <= t < EPOCHS for t in tiles):
            raise ValueError(f"stack {region}: tiles are epochs 1 to {EPOCHS - 1}")


def _top(tiles: Sequence[int]) -> int:
    return tiles[0] if tiles else EPOCHS  # an exhausted stack reveals the epoch V space


def needs_roll(stacks: Stacks, epoch: int) -> bool:
    """False when no stack shows a tile of this or an earlier epoch (L987: then no roll)."""
    _check_stacks(stacks)
    return any(tiles and tiles[0] <= epoch for tiles in stacks.values())


class ProgressRoll(BaseModel):
    model_config = ConfigDict(frozen=True)

    face: int
    region: str
    removed_epoch: int | None  # epoch of the tile removed, None if nothing was removed
    reroll: bool  # roll again: that stack's top tile is from a later epoch (or it is empty)
    stacks: dict[str, tuple[int, ...]]  # the stacks after the roll


def resolve_progress_roll(face: int, stacks: Stacks, epoch: int) -> ProgressRoll:
    """Apply one rolled face: remove the top tile of that region's stack if it belongs to
    the current or an earlier epoch; otherwise the table rolls again (L983-L987)."""
    _check_stacks(stacks)
    if face not in PROGRESS_DIE_FACES:
        raise ValueError(f"the progress die shows 1 to {len(PROGRESS_DIE_FACES)}, not {face}")
    if not 1 <= epoch <= EPOCHS:
        raise ValueError(f"epoch must be 1 to {EPOCHS}, not {epoch}")
    if not needs_roll(stacks, epoch):
        raise ValueError("no stack shows a tile of this or an earlier epoch: do not roll")
    region = PROGRESS_DIE_FACES[face]
    after = {r: tuple(t) for r, t in stacks.items()}
    tiles = after[region]
    if tiles and tiles[0] <= epoch:
        after[region] = tiles[1:]
        return ProgressRoll(face=face, region=region, removed_epoch=tiles[0], reroll=False,
                            stacks=after)
    return ProgressRoll(face=face, region=region, removed_epoch=None, reroll=True,
                        stacks=after)


def triggered_epoch(stacks: Stacks, epoch: int) -> int | None:
    """The epoch that dawns now, or None.

    Epoch II dawns once 4 stacks show epoch II, III once 3 show III, IV once 2 show IV,
    V once 1 stack is exhausted (L995-L998).  A stack showing a later epoch has already
    revealed the earlier one, so it counts too.  The marker moves one epoch at a time.
    """
    _check_stacks(stacks)
    nxt = epoch + 1
    if nxt > EPOCHS:
        return None
    showing = sum(1 for tiles in stacks.values() if _top(tiles) >= nxt)
    return nxt if showing >= EPOCH_TRIGGER[nxt] else None
