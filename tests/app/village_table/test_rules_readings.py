"""How this app reads the rules: the rules screen (from Settings, the wizard and a game),
switching readings for a new game, the log's note on the rules a game follows, and the
texts every interpretation needs in every catalogue."""

from __future__ import annotations

from typing import cast

import flet as ft
import pytest

from companion.app.village.readings import (
    applicable,
    catalogue_keys,
    game_readings,
    switchable,
)
from companion.app.village.wizard.model import WizardDraft
from companion.i18n import SUPPORTED_LANGUAGES, Translator
from companion.store.memory import MemoryStore
from companion.village.components import load_components
from companion.village.interpretations import (
    CURRENT_RULES,
    Interpretation,
    interpretation,
    interpretations,
)
from companion.village.service import GAME, VillageService

from ..harness import AppHarness, FakeClient
from ..test_catalogues import raw_catalogue
from .conftest import (
    find_id,
    make_game,
    open_app,
    start_anyway,
    tap,
    texts_under,
    village_only_routes,
)
from .test_wizard import type_names

EN = Translator("en")


def en(key: str, **kwargs: object) -> str:
    return EN.t(key, **kwargs)


def cards_on_all_pages(app: AppHarness, tr: Translator | None = None) -> dict[str, list[str]]:
    """Interpretation key -> the texts of its card, over every page of the list (the pager's
    buttons named in the screen's language `tr`, English by default)."""
    next_name = tr.t("pager.next") if tr is not None else en("pager.next")
    cards: dict[str, list[str]] = {}
    while True:
        for control, _ in app.walk(app.page.views[-1], visible_only=True):
            ident = getattr(control, "identifier", None) or ""
            key = ident.removeprefix("rules-")
            if (isinstance(control, ft.Semantics) and ident.startswith("rules-")
                    and any(item.key == key for item in interpretations())):
                cards[key] = texts_under(app, ident)
        nexts = app.find_all(control_type=ft.IconButton)
        forward = [c for c, _ in nexts  # Korean texts carry word joiners (kit.text_fit)
                   if str(getattr(c, "tooltip", None)).replace("\u2060", "") == next_name]
        if not forward or cast(ft.IconButton, forward[0]).disabled:
            return cards
        app.dispatch(forward[0], "click")


def assert_cards(cards: dict[str, list[str]], items: list[Interpretation],
                 tr: Translator) -> None:
    assert set(cards) == {item.key for item in items}
    for item in items:
        texts = cards[item.key]
        assert item.text in texts, item.key  # the rulebook's sentence, as printed
        assert tr.t(f"rules.{item.key}.title") in texts
        for option in item.options:
            assert tr.t(f"rules.{item.key}.option.{option}") in texts, (item.key, option)
        assert (tr.t("readings.switchable") in texts) == item.switchable
        assert shows(texts, tr.t("readings.app_reading"))
        assert any(item.where in t for t in texts)
        for key, option in item.applies_with.items():  # only with another reading
            assert tr.t("readings.applies_with", title=tr.t(f"rules.{key}.title"),
                        reading=tr.t(f"rules.{key}.option.{option}")) in texts


def shows(texts: list[str], text: str) -> bool:
    """`text` on its own or in a line of labels ("The app's reading · This game …")."""
    return any(text in t for t in texts)


def legacy_copy(store: MemoryStore, sid: str) -> str:
    """The game as a build before rules versions saved it: no rules_version, no readings."""
    stored = store.load(sid)
    header = dict(stored.header)
    setup = dict(header["setup"])
    setup.pop("rules_version")
    setup.pop("readings", None)
    header["setup"] = setup
    legacy = f"old-{sid}"
    store.create(legacy, GAME, stored.title, header, stored.events)
    return legacy


# ---- the catalogues -----------------------------------------------------------------------------
@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_every_interpretation_has_its_texts_in_every_catalogue(lang: str) -> None:
    """A new entry in interpretations.json fails here until all four languages have it."""
    catalogue = raw_catalogue(lang)
    missing = [key for item in interpretations() for key in catalogue_keys(item)
               if not catalogue.get(key, ("", False))[0]]
    assert not missing, f"{lang} lacks: {missing}"
    wanted = {key for item in interpretations() for key in catalogue_keys(item)}
    stale = sorted(k for k in catalogue if k.startswith("rules.") and k not in wanted)
    assert not stale, f"{lang} has texts for no interpretation: {stale}"


# ---- the rules screen ---------------------------------------------------------------------------
def test_rules_screen_from_settings_lists_every_entry(store: MemoryStore) -> None:
    with AppHarness(store) as app:
        app.click("Settings")
        tap(app, "settings-rules")
        assert [v.route for v in app.page.views] == ["/", "/settings", "/rules"]
        assert en("readings.title") in app.visible_texts()
        assert_cards(cards_on_all_pages(app), list(interpretations()), EN)
        app.click("Back")
        assert app.page.views[-1].route == "/settings"


def test_rules_screen_in_korean_and_chinese(store: MemoryStore) -> None:
    for lang, locale in (("ko", "ko-KR"), ("zh_Hant", "zh-TW")):
        client = FakeClient(locales=(locale,), initial_route="/rules")
        with AppHarness(store, client=client) as app:
            tr = Translator(lang)
            assert tr.t("readings.title") in app.visible_texts()
            assert_cards(cards_on_all_pages(app, tr), list(interpretations()), tr)


def test_the_quoted_sentence_is_selectable(store: MemoryStore) -> None:
    item = interpretations()[0]
    with open_app(store, "/rules") as app:
        quote = [c for c, _ in app.walk(find_id(app, f"rules-{item.key}-text"))
                 if isinstance(c, ft.Text)]
        assert [q.value for q in quote] == [item.text] and quote[0].selectable


def test_wizard_opens_the_rules_of_its_edition_and_keeps_the_draft(store: MemoryStore) -> None:
    with open_app(store, "/new/village") as app:
        tap(app, "edition-2011")
        tap(app, "count-2")
        tap(app, "open-rules")
        assert app.page.views[-1].route == "/new/village/rules/2011"
        assert_cards(cards_on_all_pages(app), applicable("2011", False), EN)
        assert any("2011 edition" in t for t in texts_under(app, "rules-scope"))
        app.click("Back")
        assert app.page.views[-1].route == "/new/village"
        for chosen in ("count-2", "edition-2011"):  # what was entered is still there
            assert isinstance(cast(ft.Semantics, find_id(app, chosen)).content,
                              ft.FilledButton)


def test_solo_wizard_rules_are_the_solo_ones(store: MemoryStore) -> None:
    with open_app(store, "/new/village-solo") as app:
        tap(app, "open-rules")
        assert app.page.views[-1].route == "/new/village-solo/rules"
        assert_cards(cards_on_all_pages(app), applicable("big-box", True), EN)


# ---- readings chosen in the wizard --------------------------------------------------------------
def test_a_reading_switched_in_the_wizard_is_the_games(store: MemoryStore) -> None:
    items = switchable("big-box", True)
    assert items, "the solo game has switchable readings"
    target = items[0]
    other = next(o for o in target.options if o != target.chosen)
    with open_app(store, "/new/village-solo") as app:
        # Collapsed at first: only the toggle and the way to the rules screen.
        assert not app.find_all(identifier=f"reading-{target.key}")
        toggle = texts_under(app, "readings-toggle")
        assert en("readings.wizard.toggle", count=len(items)) in toggle
        tap(app, "readings-toggle")
        for item in items:
            chosen = cast(ft.Semantics, find_id(app, f"reading-{item.key}-{item.chosen}"))
            assert chosen.selected  # every reading starts at the app's reading
        tap(app, f"reading-{target.key}-{other}")
        assert cast(ft.Semantics, find_id(app, f"reading-{target.key}-{other}")).selected
        assert not cast(ft.Semantics,
                        find_id(app, f"reading-{target.key}-{target.chosen}")).selected
        app.click("Next")
        type_names(app, ["Sol"])
        app.click("Next")
        app.click("Next")
        start_anyway(app)
    [info] = store.list_sessions()
    setup = VillageService(store).open(info.id).setup  # loaded back from the store
    assert setup.rules_version == CURRENT_RULES
    assert setup.readings[target.key] == other
    for item in items[1:]:
        if item.setup_field is None:
            assert setup.readings[item.key] == item.chosen


def test_a_2011_game_has_compensation_off_as_a_house_rule(store: MemoryStore) -> None:
    with open_app(store, "/new/village") as app:
        tap(app, "edition-2011")
        tap(app, "count-2")
        app.click("Next")
        type_names(app, ["Ann", "Bo"])
        app.click("Next")
        texts = app.visible_texts()
        assert en("readings.wizard.house_rule") in texts
        assert en("village.wizard.compensation") not in texts
        switch = [c for c, _ in app.walk(find_id(app, "compensation"))
                  if isinstance(c, ft.Switch)]
        assert switch[0].value is False
        app.click("Next")
        start_anyway(app)
    [info] = store.list_sessions()
    setup = VillageService(store).open(info.id).setup
    assert setup.edition == "2011" and setup.compensation is False
    assert "compensation_2011" not in setup.readings


def test_the_house_rule_can_be_chosen(store: MemoryStore) -> None:
    with open_app(store, "/new/village") as app:
        tap(app, "edition-2011")
        tap(app, "count-2")
        app.click("Next")
        type_names(app, ["Ann", "Bo"])
        app.click("Next")
        app.toggle_switch(en("readings.wizard.house_rule"))
        app.click("Next")
        start_anyway(app)
    [info] = store.list_sessions()
    assert VillageService(store).open(info.id).setup.compensation is True


def test_the_draft_follows_the_edition() -> None:
    comp = {ed: load_components(ed) for ed in ("big-box", "2011")}
    draft = WizardDraft.new(solo=False, d4=False, karla_auto=False)
    draft.set_count(2)
    for seat, name in zip(draft.seats, ("Ann", "Bo"), strict=True):
        seat.name = name
    assert draft.compensation is True  # the Big Box rule
    draft.set_edition("2011")
    assert draft.compensation is False and draft.choice("compensation_2011") == "off"
    draft.choose("compensation_2011", "on")
    assert draft.compensation is True
    setup = draft.to_setup(comp["2011"], seed=1)
    assert setup.compensation is True and "compensation_2011" not in setup.readings
    draft.set_edition("big-box")
    assert draft.compensation is True
    for item in switchable("big-box", False):
        draft.choose(item.key, item.options[-1])
    setup = draft.to_setup(comp["big-box"], seed=1)
    assert setup.readings == {item.key: item.options[-1]
                              for item in switchable("big-box", False)
                              if item.setup_field is None}
    with pytest.raises(ValueError, match="must be one of"):
        draft.choose(switchable("big-box", False)[0].key, "maybe")


# ---- a game's rules: the log's note and the game's rules screen ---------------------------------
def test_the_log_of_a_game_started_before_the_fixes_says_so(store: MemoryStore) -> None:
    sid = legacy_copy(store, make_game(store, solo=True))
    session = VillageService(store).open(sid)
    assert session.setup.rules_version == 1
    with open_app(store, f"/play/village/{sid}/log") as app:
        note = texts_under(app, "rules-note")
        assert ("This game started before the rulebook fixes of version 2 and replays by "
                "the rules it was started with.") in note
        for item in applicable("big-box", True):
            if item.legacy is not None and item.legacy != item.chosen:
                line = en("readings.game.reading", title=en(f"rules.{item.key}.title"),
                          reading=en(f"rules.{item.key}.option.{item.legacy}"))
                assert texts_under(app, f"rules-differs-{item.key}") == [line]
        assert any(t.startswith("Karla after the well: ") for t in note)
        tap(app, "open-rules")
        assert app.page.views[-1].route == f"/play/village/{sid}/log/rules"
        cards = cards_on_all_pages(app)
        # What this game plays by: a reading that only matters with another one this
        # game does not play by (applies_with) is left out.
        in_effect = [item for item, _ in game_readings(session.setup)]
        assert_cards(cards, in_effect, EN)
        assert len(in_effect) < len(applicable("big-box", True))
        karla = cards["karla_after_well"]
        assert shows(texts_under(app, "rules-karla_after_well-serve_customer"),
                     en("readings.this_game"))
        assert not shows(texts_under(app, "rules-karla_after_well-no_reaction"),
                         en("readings.this_game"))
        assert en("readings.legacy", version=interpretation("karla_after_well").since
                  ) in " ".join(karla)
        app.click("Back")
        assert app.page.views[-1].route == f"/play/village/{sid}/log"


def test_the_log_note_in_german(store: MemoryStore) -> None:
    sid = legacy_copy(store, make_game(store, solo=True))
    client = FakeClient(locales=("de-DE",), initial_route=f"/play/village/{sid}/log")
    with AppHarness(store, routes=village_only_routes(), client=client) as app:
        de = Translator("de")
        note = texts_under(app, "rules-note")
        assert de.t("readings.game.legacy", version=2) in note  # a game of rules version 1
        assert any(t.startswith(de.t("rules.karla_after_well.title") + ": ") for t in note)


def test_a_new_game_follows_the_current_rules(store: MemoryStore) -> None:
    sid = make_game(store)
    with open_app(store, f"/play/village/{sid}/log") as app:
        note = texts_under(app, "rules-note")
        assert en("readings.game.current", version=CURRENT_RULES) in note
        assert en("readings.game.differs") not in note
        assert rows_of_log(app)  # the entries are still there, under the note


def rows_of_log(app: AppHarness) -> list[str]:
    return [str(c.identifier) for c, _ in app.walk(app.page.views[-1])
            if isinstance(c, ft.Semantics) and (c.identifier or "").startswith("log-")]


def test_a_reading_chosen_for_a_game_shows_in_its_log_and_rules(store: MemoryStore) -> None:
    item = switchable("big-box", False)[0]
    other = next(o for o in item.options if o != item.chosen)
    sid = make_game(store)
    stored = store.load(sid)
    header = dict(stored.header)
    header["setup"] = {**header["setup"], "readings": {item.key: other}}
    chosen_sid = f"chosen-{sid}"
    store.create(chosen_sid, GAME, stored.title, header, stored.events)
    with open_app(store, f"/play/village/{chosen_sid}") as app:
        tap(app, "open-rules")  # from the table's options
        assert app.page.views[-1].route == f"/play/village/{chosen_sid}/rules"
        assert shows(texts_under(app, f"rules-{item.key}-{other}"), en("readings.this_game"))
        assert en("readings.game.current", version=CURRENT_RULES) in texts_under(
            app, "rules-note")
        assert texts_under(app, f"rules-differs-{item.key}") == [en(
            "readings.game.reading", title=en(f"rules.{item.key}.title"),
            reading=en(f"rules.{item.key}.option.{other}"))]
        app.click("Back")
        assert app.page.views[-1].route == f"/play/village/{chosen_sid}"
