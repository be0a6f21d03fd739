"""Which scorer handles which `"game"` value of a score file."""

from __future__ import annotations

import importlib
from typing import Any

from companion.core.validation import InputProblems
from companion.scoring.contract import Scorer, ScoreSheet

# game id -> "module:function"; imported lazily so one game's import never slows another.
SCORERS: dict[str, str] = {
    "village": "companion.village.scoring:score_payload",
    "small-city": "companion.small_city.scoring:score_payload",
    "feudum": "companion.feudum.scoring:score_payload",
    "villagers": "companion.villagers.scoring:score_payload",
}


def scorer_for(game: str) -> Scorer:
    target = SCORERS.get(game)
    if target is None:
        known = ", ".join(sorted(SCORERS))
        raise InputProblems([f"game: must be one of {known}"])
    module_name, func_name = target.split(":")
    func: Scorer = getattr(importlib.import_module(module_name), func_name)
    return func


def score(payload: Any) -> ScoreSheet:
    if not isinstance(payload, dict):
        raise InputProblems(["(input): must be a JSON object"])
    game = payload.get("game", "village")
    if not isinstance(game, str):
        raise InputProblems(["game: must be text"])
    return scorer_for(game)(payload)
