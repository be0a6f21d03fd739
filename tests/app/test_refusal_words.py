"""Refusals are worded for players: every `error.<key>` text in every language, and the
app's words for a refusal (present.error_text), never show an internal field path
("pay.coins", "players[1].name", "delta")."""

from __future__ import annotations

import re
from typing import Any, cast

import pytest

from companion.app.context import AppContext
from companion.app.village.present import error_text
from companion.i18n import SUPPORTED_LANGUAGES, Translator
from companion.village.rules.errors import RuleError

from .test_all_error_keys import _real_refusals, params_by_key
from .test_catalogues import raw_catalogue

# Refusals of a hand-typed JSON command (the CLI, a pasted event) quote JSON on purpose.
JSON_SHAPE = {"rule.command_not_object", "rule.command_type_required", "rule.command_type_text",
              "rule.outcome_not_object"}
PATH = re.compile(r"\b[a-z_]+(\.[a-z_]+)+\b|\[\d+\]|\b[a-z]+_[a-z_]+\b")


class _Ctx:
    def __init__(self, lang: str) -> None:
        self.translator = Translator(lang)

    def t(self, key: str, **params: Any) -> str:
        return self.translator.t(key, **params)


def _ctx(lang: str) -> AppContext:
    """What error_text reads of a page's context (its translator), without a page."""
    return cast(AppContext, _Ctx(lang))


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_no_error_text_names_a_field_path(lang: str) -> None:
    catalogue = raw_catalogue(lang)
    known = params_by_key()
    assert len(known) > 150
    for key in sorted(known):
        if key in JSON_SHAPE:
            continue
        text = _Ctx(lang).t(f"error.{key}", **{name: 3 for name in known[key]})
        assert "{" not in text, (key, text)
        assert not PATH.search(re.sub(r"\{\w+\}", "", catalogue[f"error.{key}"][0])), key


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_the_words_of_a_refusal_leave_its_field_path_out(lang: str) -> None:
    ctx = _ctx(lang)
    for exc in _real_refusals():
        text = error_text(ctx, exc)
        assert exc.field not in text.split(":")[0] or "." not in exc.field, text
        assert not text.startswith(f"{exc.field}:"), text
    keyed = RuleError("pay.coins", "Chen has 0 coins, needs 2", "rule.not_enough_coins",
                      {"name": "Chen", "have": 0, "need": 2})
    assert "pay" not in error_text(ctx, keyed) and "Chen" in error_text(ctx, keyed)
    # No key (a command's shape): the field in words, never its path.
    keyless = RuleError("pay.coins", "Input should be greater than or equal to 0")
    words = error_text(ctx, keyless)
    assert "pay.coins" not in words and words.startswith(ctx.t("village.field.pay"))
    other = error_text(ctx, RuleError("outcome.placements[2]", "is invalid"))
    assert "outcome" not in other and other.startswith(ctx.t("village.refused_entry"))


def test_english_refusal_reads_as_said_in_the_issue() -> None:
    exc = RuleError("pay.coins", "x", "rule.not_enough_coins",
                    {"name": "Chen", "have": 0, "need": 2})
    assert error_text(_ctx("en"), exc) == "Chen has 0 coins, needs 2"


def test_a_predicate_refusal_gets_its_field_in_words() -> None:
    ctx = _ctx("en")
    exc = RuleError("value", "must not be negative", "rule.not_negative")
    assert error_text(ctx, exc) == "Points: must not be negative"
    drawn = RuleError("outcome.council", "x", "rule.wrong_cube_count", {"need": 2, "got": 3})
    assert error_text(ctx, drawn) == "Council: needs 2 cubes, got 3"
