"""Home and the Village wizard (every step, every estimate of the component check, solo
and multiplayer, both editions) rendered headless in 한국어, Deutsch and 繁體中文: no
sentence of the English catalogue, and no English sentence at all, reaches the screen."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any, cast

import flet as ft
import pytest
from flet.controls.base_control import BaseControl

from companion.i18n import load_catalogue, load_plurals
from companion.store.memory import MemoryStore
from companion.tally.service import TallyService
from companion.village.service import VillageService
from companion.village.setup import PlayerSetup, VillageSetup

from .harness import AppHarness, FakeClient

LANGUAGES = {"ko": "ko-KR", "de": "de-DE", "zh_Hant": "zh-TW"}
WORD = re.compile(r"[A-Za-z][a-z']+")
# Words that mark a sentence as English (none of them is German, Korean or Chinese).
ENGLISH_MARKERS = frozenset({"the", "and", "of", "is", "are", "your", "you", "with",
                             "this", "that", "from", "will", "has", "have", "to", "it's",
                             "not", "be", "was", "which", "there"})
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")
LABEL = re.compile(r"[A-Za-z][A-Za-z' ]{2,}")


def texts(lang: str) -> dict[str, set[str]]:
    """key -> its texts in the language: an ordinary message's one, a plural message's forms."""
    out = {key: {text} for key, text in load_catalogue(lang).items()}
    out.update((key, set(forms)) for key, forms in load_plurals(lang).items())
    return out


def english_texts() -> list[tuple[str, str]]:
    return [(key, text) for key, forms in texts("en").items() for text in sorted(forms)]


@lru_cache(maxsize=len(LANGUAGES))
def english_patterns(lang: str) -> list[tuple[str, re.Pattern[str]]]:
    """Each English catalogue text (with its placeholders as wildcards) that the language
    words differently and that holds two English words or more."""
    other = texts(lang)
    out = []
    for key, text in english_texts():
        if text in other.get(key, set()):
            continue
        literal = PLACEHOLDER.sub(" ", text)
        if len(WORD.findall(literal)) < 2:
            continue
        parts = [re.escape(part) for part in PLACEHOLDER.split(text)]
        out.append((key, re.compile(".+?".join(parts))))
    return out


@lru_cache(maxsize=len(LANGUAGES))
def english_labels(lang: str) -> dict[str, str]:
    """Each one-word English catalogue text ("Bag", "Cancel", "Charter VP") that the
    language words differently and that no text of the language's catalogue equals:
    shown whole on a screen of that language, it is an untranslated label."""
    other = texts(lang)
    own = set().union(*other.values())
    out = {}
    for key, text in english_texts():
        if text in other.get(key, set()) or text in own or PLACEHOLDER.search(text):
            continue
        if len(WORD.findall(text)) == 1 and LABEL.fullmatch(text.strip()):
            out[text.strip()] = key
    return out


def english_in(lang: str, texts: list[str]) -> list[str]:
    found = []
    labels = english_labels(lang)
    for text in texts:
        if text.strip() in labels:
            found.append(f"{labels[text.strip()]}: {text!r}")
            continue
        words = {w.lower() for w in WORD.findall(text)}
        markers = words & ENGLISH_MARKERS
        if len(markers) >= 2:
            found.append(f"English sentence: {text!r}")
            continue
        if len(words) < 2:
            continue
        for key, pattern in english_patterns(lang):
            if pattern.search(text):
                found.append(f"{key}: {text!r}")
                break
    return found


class Screens:
    """Collects what every visited screen shows, with where it was seen."""

    def __init__(self, app: AppHarness, lang: str) -> None:
        self.app, self.lang = app, lang
        self.problems: list[str] = []
        self.seen = 0

    def look(self, where: str) -> None:
        texts = self.app.visible_texts()
        self.seen += 1
        self.problems += [f"{self.lang} {where}: {p}" for p in english_in(self.lang, texts)]


def seeded_store() -> MemoryStore:
    store = MemoryStore()
    svc = VillageService(store)
    svc.create(VillageSetup(players=[PlayerSetup(name="Ann", colour="red"),
                                     PlayerSetup(name="Bo", colour="blue")], seed=1))
    svc.create(VillageSetup(players=[PlayerSetup(name="Cy", colour="red")], solo=True,
                            karla_colour="purple", seed=2))
    TallyService(store).create("feudum", ["Di", "Ed"])
    return store


def inside(control: object) -> BaseControl:
    """What an `ft.Semantics` wraps (the control that takes the tap or the text)."""
    content = cast(ft.Semantics, control).content
    assert content is not None
    return content


def tap_id(app: AppHarness, identifier: str) -> None:
    root = app.find(identifier=identifier)
    for control, _ in app.walk(root, visible_only=True):
        if getattr(control, "on_click", None) is not None:
            app.dispatch(control, "click")
            return
    raise AssertionError(f"nothing tappable in {identifier}")


def wizard_next(app: AppHarness) -> None:
    row = cast(ft.Row, cast(ft.Semantics, app.find(identifier="wizard-nav")).content)
    app.dispatch(row.controls[1], "click")


def estimate_tabs(app: AppHarness) -> list[str]:
    return [str(c.identifier) for c, _ in app.walk(app.page.views[-1], visible_only=True)
            if isinstance(c, ft.Semantics) and (c.identifier or "").startswith("estimate-tab-")]


def walk_wizard(app: AppHarness, screens: Screens, route: str,
                before: Callable[[], Any] | None = None) -> None:
    app.set_route(route)
    if before is not None:
        before()
    for step in range(3):
        screens.look(f"{route} step {step + 1}")
        if step == 1:  # players: names are required
            for seat, name in enumerate(["Ann", "Bo", "Cy", "Di", "Ed"]):
                hits = app.find_all(identifier=f"seat-name-{seat}")
                if hits:
                    app.set_value(inside(hits[0][0]), name)
        if step == 2 and app.find_all(identifier="readings-toggle"):
            tap_id(app, "readings-toggle")  # the readings, opened
            screens.look(f"{route} readings")
        wizard_next(app)
    tabs = estimate_tabs(app)
    assert tabs, "the component check lists the estimates"
    for tab in tabs:
        tap_id(app, tab)
        screens.look(f"{route} check {tab}")
    app.set_route("/")


def visit_everything(lang: str) -> Iterator[Screens]:
    with AppHarness(seeded_store(), client=FakeClient(locales=(LANGUAGES[lang],))) as app:
        screens = Screens(app, lang)
        screens.look("home")
        deletes = [c for c, _ in app.find_all(control_type=ft.Semantics)
                   if (cast(ft.Semantics, c).identifier or "").startswith("delete-")]
        app.dispatch(inside(deletes[0]), "click")
        screens.look("home: delete question")
        app.dispatch(app.find_all(control_type=ft.FilledButton)[-1][0], "click")
        screens.look("home: deleted, with undo")
        walk_wizard(app, screens, "/new/village")
        walk_wizard(app, screens, "/new/village-solo")
        walk_wizard(app, screens, "/new/village", before=lambda: tap_id(app, "edition-2011"))
        yield screens


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_home_and_wizard_show_no_english(lang: str) -> None:
    for screens in visit_everything(lang):
        assert screens.seen > 30
        assert not screens.problems, "\n".join(screens.problems)


def test_the_check_catches_english() -> None:
    """The detector itself: an English catalogue sentence and a free English sentence."""
    english = load_catalogue("en")
    assert english_in("ko", [english["home.resume.empty"]])
    assert english_in("de", ["Printed on the board, not in the rulebook."])
    assert english_in("de", [english["village.why.time_track_length"]])
    assert not english_in("de", [load_catalogue("de")["village.why.time_track_length"]])
    assert not english_in("zh_Hant", ["單人對戰卡拉：Ann", "Ann, Bo"])
    assert english_in("ko", [english["village.bag.button"]])  # a one-word label
    assert not english_in("de", ["Ann", "Bo", "OK", "Ernte", "Beutel"])
