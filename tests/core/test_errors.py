"""The one refusal type: Village's RuleError and the assistants' EditRejected are both
`Refused`, so an app catches one type and words any refusal by its key."""

from __future__ import annotations

import pytest

from companion.core.errors import Problem, Refused
from companion.core.validation import InputProblems
from companion.tally.errors import EditRejected, reject
from companion.tally.errors import Problem as TallyProblem
from companion.village.rules.errors import RuleError, require


def test_a_refusal_reads_its_first_problem_and_lists_every_field() -> None:
    exc = Refused([Problem("value", "must be at least 0", "tally.min", {"min": 0}),
                   Problem("player", "is out")])
    assert (exc.field, exc.message, exc.key, exc.params) == (
        "value", "must be at least 0", "tally.min", {"min": 0})
    assert exc.fields == ["value", "player"]
    assert str(exc) == "value: must be at least 0\nplayer: is out"
    assert isinstance(exc, ValueError)


def test_a_refusal_names_at_least_one_problem() -> None:
    with pytest.raises(ValueError, match="at least one problem"):
        Refused([])


def test_one_builds_a_single_problem_refusal() -> None:
    exc = Refused.one("group", "must be a whole number")
    assert exc.problems == [Problem("group", "must be a whole number")]
    assert exc.key is None and exc.params == {}


def test_rule_error_is_a_refusal_with_its_own_constructor() -> None:
    exc = RuleError("coins", "not enough", "rule.not_enough_coins", {"have": 1, "need": 2})
    assert isinstance(exc, Refused) and isinstance(exc, ValueError)
    assert (exc.field, exc.message, exc.key, exc.params) == (
        "coins", "not enough", "rule.not_enough_coins", {"have": 1, "need": 2})
    assert str(exc) == "coins: not enough"
    assert exc.problems == [Problem("coins", "not enough", "rule.not_enough_coins",
                                    {"have": 1, "need": 2})]
    with pytest.raises(Refused) as info:
        require(False, "space", "is taken", "rule.cube_already_taken")
    assert info.value.key == "rule.cube_already_taken"


def test_edit_rejected_is_a_refusal_and_still_input_problems() -> None:
    problems = [Problem("a", "x"), Problem("b", "y", "k")]
    exc = EditRejected(problems)
    assert isinstance(exc, Refused) and isinstance(exc, InputProblems)
    assert exc.problems == problems and exc.fields == ["a", "b"]
    assert exc.lines == ["a: x", "b: y"] and str(exc) == "a: x\nb: y"
    assert TallyProblem is Problem  # moved to the core, still exported where it was
    with pytest.raises(Refused) as info:
        reject("name", "is empty", "tally.name_empty", {"n": 1})
    assert (info.value.field, info.value.key, info.value.params) == (
        "name", "tally.name_empty", {"n": 1})


@pytest.mark.parametrize("exc", [RuleError("f", "m", "k", {"p": 1}),
                                 EditRejected([Problem("f", "m", "k", {"p": 1})])])
def test_an_app_words_either_refusal_by_key(exc: Refused) -> None:
    try:
        raise exc
    except Refused as caught:
        assert (caught.key, caught.params, caught.field) == ("k", {"p": 1}, "f")
