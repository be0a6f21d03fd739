"""The action spaces' handlers by command type: a thin registry, no rules. Each action is
in the module named after it (rulebook: the action spaces): harvest.py, family.py,
crafts.py (with the mill), council.py, travel.py, church.py; the market day: market.py;
the well (taken instead of a cube): well.py."""

from __future__ import annotations

from companion.village.commands import (
    Church,
    CouncilAdvance,
    CouncilEnter,
    CouncilPrivilege,
    CraftsBuy,
    CraftsTrain,
    FamilyBirth,
    FamilyRecall,
    Harvest,
    Mill,
    Travel,
)
from companion.village.rules import church, council, crafts, family, harvest, travel
from companion.village.rules.context import Handler, handles

ACTION_HANDLERS: dict[str, Handler] = dict([
    handles(Harvest, harvest.harvest),
    handles(FamilyBirth, family.family_birth),
    handles(FamilyRecall, family.family_recall),
    handles(CraftsTrain, crafts.crafts_train),
    handles(CraftsBuy, crafts.crafts_buy),
    handles(Mill, crafts.mill),
    handles(CouncilEnter, council.council_enter),
    handles(CouncilAdvance, council.council_advance),
    handles(CouncilPrivilege, council.council_privilege),
    handles(Travel, travel.travel),
    handles(Church, church.church),
])
