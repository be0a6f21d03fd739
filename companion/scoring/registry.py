"""Which scorer handles which `"game"` value of a score file (the registry's scorers,
companion/games)."""

from __future__ import annotations

from companion import games
from companion.core.validation import InputProblems
from companion.scoring.contract import Scorer, ScoreSheet
from companion.scoring.document import merge_problems, read_document

# game id -> "module:function"; imported lazily so one game's import never slows another.
SCORERS: dict[str, str] = games.scorers()


def scorer_for(game: str) -> Scorer:
    target = SCORERS.get(game)
    if target is None:
        known = ", ".join(sorted(SCORERS))
        raise InputProblems([f"game: must be one of {known}"])
    func: Scorer = games.load(target)
    return func


def score(payload: object) -> ScoreSheet:
    if not isinstance(payload, dict):
        raise InputProblems(["(input): must be a JSON object"])
    game = payload.get("game", games.VILLAGE)
    if not isinstance(game, str):
        raise InputProblems(["game: must be text"])
    return scorer_for(game)(payload)


def score_document(data: bytes) -> ScoreSheet:
    """Score the raw bytes of a score file (the `score` command's input).

    Raises InputProblems with one line per problem, each naming its field or `(input)`:
    the values `read_document` refused together with the game's own problems.
    """
    payload, refused = read_document(data)
    try:
        sheet = score(payload)
    except InputProblems as exc:
        raise InputProblems(merge_problems(refused, exc.lines)) from exc
    if refused:
        raise InputProblems(merge_problems(refused, []))
    return sheet
