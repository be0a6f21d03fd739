"""Every refusal the engines raise is chosen by key and worded in every language.

A refusal (Village's RuleError/require, the assistants' reject/Problem) carries a `key`
and `params` set where it is raised; the app words it from the catalogues as
"error.<key>" (locales/<lang>/LC_MESSAGES/errors.po). The scans below read the source
of companion/ (AST), so a new raise site without a key, a key without words, or words
naming a value the raise site does not pass fail here."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from companion.app.village.present import ANOTHER_SEAT_WORDS, error_params
from companion.i18n import SUPPORTED_LANGUAGES, Translator, catalogue_files, placeholders
from companion.village.rules.errors import RuleError
from companion.village.session import VillageSession
from tests.village_rules.conftest import new_session, started

from .test_catalogues import raw_catalogue

ROOT = Path(__file__).resolve().parents[2] / "companion"
KEY = re.compile(r"^(rule|tally|small_city|feudum|villagers|log)\.[a-z0-9_]+$")
# Refusal constructors: name -> index of the positional `key` argument.
REFUSALS = {"RuleError": 2, "require": 3, "reject": 2, "Problem": 2, "RosterProblem": 2,
            "refuse": 2}  # refuse: the session's refusal type handed to the core log
# Where a refusal is built from something else, not raised for a rule:
KEYLESS = {
    # pydantic validation errors of hand-edited input (a command, an edit, a setup) are
    # shape errors: they are worded in English from the validator, with no key.
    ("village/rules/errors.py", "from_validation"),
    ("tally/errors.py", "validate_model"),
    ("tally/errors.py", "problems_from_lines"),
    # the constructors themselves, passing their own arguments on
    ("village/rules/errors.py", "require"),
    ("tally/errors.py", "reject"),
    ("core/errors.py", "one"),
}
# Keys chosen at run time from a table, with the params their raise site passes.
TABLE_KEYS = {
    # corrections.NEGATIVE_KEYS[cmd.field], params {"name", "new"}
    "rule.negative_prestige": {"name", "new"},
    "rule.negative_coins": {"name", "new"},
    "rule.negative_grain": {"name", "new"},
    # FieldSpec(max_key=...) checked by tally.rules.check_value, params {"maximum", "value"}
    "feudum.at_most_sulfur": {"maximum", "value"},
    "feudum.at_most_service_discs": {"maximum", "value"},
    "feudum.at_most_fief": {"maximum", "value"},
}


def _sources() -> Iterator[tuple[str, ast.AST]]:
    for path in sorted(ROOT.rglob("*.py")):
        yield path.relative_to(ROOT).as_posix(), ast.parse(path.read_text(encoding="utf-8"))


def _functions(tree: ast.AST) -> Iterator[tuple[str, ast.Call]]:
    """Every call with the name of the function (or module) it sits in."""
    def walk(node: ast.AST, where: str) -> Iterator[tuple[str, ast.Call]]:
        for child in ast.iter_child_nodes(node):
            name = child.name if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) \
                else where
            if isinstance(child, ast.Call):
                yield where, child
            yield from walk(child, name)
    yield from walk(tree, "<module>")


def _name(call: ast.Call) -> str | None:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


def _arg(call: ast.Call, name: str, index: int) -> ast.expr | None:
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    return call.args[index] if len(call.args) > index else None


def _literal_keys(node: ast.expr | None) -> set[str] | None:
    """The keys a key expression can give: a literal, `a if c else b`, `x or "default"`
    (None: chosen at run time, e.g. from a table)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        a, b = _literal_keys(node.body), _literal_keys(node.orelse)
        return a | b if a is not None and b is not None else None
    if isinstance(node, ast.BoolOp):
        literal = [k for v in node.values if (k := _literal_keys(v)) is not None]
        return set().union(*literal) if literal else None
    return None


def _param_names(node: ast.expr | None) -> set[str] | None:
    if node is None:
        return set()
    if isinstance(node, ast.Dict) and all(isinstance(k, ast.Constant) for k in node.keys):
        return {str(k.value) for k in node.keys if isinstance(k, ast.Constant)}
    return None


def refusal_sites() -> list[tuple[str, str, int, ast.Call]]:
    # The app's own Problem (the new-game wizard's field checks) is not a refusal.
    return [(path, where, call.lineno, call) for path, tree in _sources()
            for where, call in _functions(tree) if _name(call) in REFUSALS
            and not (path.startswith("app/") and "Problem" in str(_name(call)))]


def keys_in_code() -> set[str]:
    """Every refusal key literal in companion/ (raise sites, key tables, FieldSpecs)."""
    return {node.value for _path, tree in _sources() for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and KEY.match(node.value)}


def params_by_key() -> dict[str, set[str]]:
    """key -> the params its raise sites pass (a key used at several sites: what all of
    them pass), from literal keys with literal params and from (message, key, params)
    tuples such as corrections.location_problem's."""
    found: dict[str, set[str]] = {}

    def add(keys: set[str] | None, names: set[str] | None) -> None:
        for key in keys or set():
            if names is not None:
                found[key] = found[key] & names if key in found else set(names)

    for _path, tree in _sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _name(node) in REFUSALS:
                index = REFUSALS[str(_name(node))]
                add(_literal_keys(_arg(node, "key", index)),
                    _param_names(_arg(node, "params", index + 1)))
            elif isinstance(node, ast.Tuple) and len(node.elts) == 3:
                add(_literal_keys(node.elts[1]) if isinstance(node.elts[1], ast.Constant)
                    and KEY.match(str(node.elts[1].value)) else None,
                    _param_names(node.elts[2]))
    for key, names in TABLE_KEYS.items():
        found[key] = found.get(key, names) & names
    return found


def test_every_refusal_has_a_key() -> None:
    missing = [f"{path}:{line} ({where})" for path, where, line, call in refusal_sites()
               if (path, where) not in KEYLESS
               and _arg(call, "key", REFUSALS[str(_name(call))]) is None]
    assert not missing, "refusals without a key:\n" + "\n".join(missing)


def test_the_scan_sees_the_raise_sites() -> None:
    sites = refusal_sites()
    assert len(sites) > 200
    assert {"village/rules/corrections.py", "feudum/tally.py", "small_city/tally.py",
            "villagers/tally.py", "tally/rules.py", "village/session.py"} <= {
        path for path, *_ in sites}


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_every_key_has_words_and_every_word_a_key(lang: str) -> None:
    catalogue = {k for k in raw_catalogue(lang) if k.startswith("error.")}
    keys = keys_in_code()
    assert set(keys) >= ANOTHER_SEAT_WORDS
    wanted = {f"error.{k}" for k in keys} | {f"error.{k}.another_seat"
                                             for k in ANOTHER_SEAT_WORDS}
    assert sorted(wanted - catalogue) == [], "keys without words"
    assert sorted(catalogue - wanted) == [], "words for keys the code never uses"
    assert all(Translator(lang).has(k) for k in wanted)


def test_error_words_live_in_errors_po() -> None:
    for lang in SUPPORTED_LANGUAGES:
        for path in catalogue_files(lang):
            with path.open("rb") as fh:
                ids = {str(m.id) for m in read_po(fh) if m.id}
            errors = {k for k in ids if k.startswith("error.")}
            assert bool(errors) == (path.name == "errors.po"), (lang, path.name)


def test_every_key_in_code_has_known_params() -> None:
    known = params_by_key()
    assert sorted(keys_in_code() - set(known)) == []


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_placeholders_are_params_the_raise_site_passes(lang: str) -> None:
    english, other = raw_catalogue("en"), raw_catalogue(lang)
    problems = []
    for key, names in sorted(params_by_key().items()):
        en_text, text = english[f"error.{key}"][0], other[f"error.{key}"][0]
        if placeholders(text) != placeholders(en_text):
            problems.append(f"{key}: {sorted(placeholders(text))} in {lang}, "
                            f"{sorted(placeholders(en_text))} in en")
        if not placeholders(text) <= names:
            problems.append(f"{key}: {sorted(placeholders(text) - names)} not passed")
    assert not problems, "\n".join(problems)


class _Ctx:
    """What the wording functions read of an AppContext."""

    def __init__(self, lang: str) -> None:
        self.translator = Translator(lang)

    def t(self, key: str, **params: Any) -> str:
        return self.translator.t(key, **params)


def _refused(session: VillageSession, command: dict[str, Any]) -> RuleError:
    with pytest.raises(RuleError) as info:
        session.execute(command)
    return info.value


def _real_refusals() -> list[RuleError]:
    session = started()
    refusals = [
        _refused(session, {"type": "adjust", "player": 7, "field": "coins", "delta": 1}),
        _refused(session, {"type": "adjust", "player": 0, "field": "grain", "delta": -99}),
        _refused(session, {"type": "mass_buyout", "members": []}),
        _refused(session, {"type": "set_time", "player": 0, "position": 99}),
        _refused(session, {"type": "harvest"}),
        _refused(new_session(), {"type": "end_turn"}),
    ]
    return refusals


# English words that may stay: the player's names and Karla.
ALLOWED = {"Chris", "Karla"}


@pytest.mark.parametrize("lang", ["ko", "de"])
def test_real_refusals_are_worded_without_english(lang: str) -> None:
    ctx = _Ctx(lang)
    english = raw_catalogue("en")
    refusals = _real_refusals()
    assert {r.key for r in refusals} == {
        "rule.no_such_player", "rule.negative_grain", "rule.no_mass_buyout",
        "rule.time_track_range", "rule.take_before_acting", "rule.waiting_for_draw"}
    for exc in refusals:
        assert exc.key is not None
        text = ctx.t(f"error.{exc.key}", **error_params(ctx, exc.params))  # type: ignore[arg-type]
        en_words = set(re.findall(r"[A-Za-z]{3,}", re.sub(r"\{\w+\}", "",
                                                          english[f"error.{exc.key}"][0])))
        leaked = {w for w in re.findall(r"[A-Za-z]{3,}", text)
                  if w.lower() in {e.lower() for e in en_words} and w not in ALLOWED}
        assert not leaked, f"{exc.key} in {lang}: {text!r} keeps {leaked}"
        assert text != exc.message and "{" not in text
