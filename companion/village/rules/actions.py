"""The action spaces' handlers by command type: a thin registry, no rules. Each action is
in the module named after it (rulebook: the action spaces): harvest.py, family.py,
crafts.py (with the mill), council.py, travel.py, church.py; the market day: market.py;
the well (taken instead of a cube): well.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.village.rules import church, council, crafts, family, harvest, travel
from companion.village.rules.context import Ctx

ACTION_HANDLERS: dict[str, Callable[[Ctx, Any], None]] = {
    "harvest": harvest.harvest,
    "family_birth": family.family_birth,
    "family_recall": family.family_recall,
    "crafts_train": crafts.crafts_train,
    "crafts_buy": crafts.crafts_buy,
    "mill": crafts.mill,
    "council_enter": council.council_enter,
    "council_advance": council.council_advance,
    "council_privilege": council.council_privilege,
    "travel": travel.travel,
    "church": church.church,
}
