"""What the app may use of the tally sessions (an architecture test keeps the app to this
module): the service that saves, the session it returns, the refusal type and the games."""

from __future__ import annotations

from companion.tally.errors import EditRejected, Problem
from companion.tally.registry import TALLY_GAMES, rules_for
from companion.tally.rules import AdjustField, Edit, SetField, built
from companion.tally.service import TallyService
from companion.tally.session import TallySession

__all__ = ["TALLY_GAMES", "AdjustField", "Edit", "EditRejected", "Problem", "SetField",
           "TallyService", "TallySession", "built", "rules_for"]
