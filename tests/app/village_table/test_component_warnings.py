"""The component check warns, and never refuses, when a setup card the players entered
breaks the rulebook's 「每輪加入布袋的方塊會多於抽出的方塊」 (000, note under 三人遊戲的範例:
each round more cubes go into the bag than are drawn); Start still works."""

from __future__ import annotations

from typing import cast

import flet as ft

from companion.app.village.hub import HUB
from companion.i18n import Translator
from companion.store.memory import MemoryStore
from companion.village.components import load_components
from companion.village.service import VillageService

from ..harness import AppHarness, FakeClient
from .conftest import find_id, open_app, start_anyway, tap, texts_under, village_only_routes
from .test_components_check import fields_in, to_check_step

WARNING = "village.components.warning.bag_not_above_draw"
EN = Translator("en")


def warnings_shown(app: AppHarness) -> list[str]:
    if not app.find_all(identifier="component-warnings"):
        return []
    return texts_under(app, "component-warnings")


def store_card(store: MemoryStore, players: int, bag: int) -> None:
    cards = load_components("big-box").v("setup_cards")
    cards[str(players)]["bag_per_colour"] = bag
    VillageService(store).correct("big-box", "setup_cards", cards)


def test_the_shipped_cards_give_no_warning(store: MemoryStore) -> None:
    for players in (2, 3, 4, 5):
        with open_app(store, "/new/village") as app:
            to_check_step(app, players=players)
            tap(app, "estimate-tab-setup_cards")
            assert find_id(app, "schematic-setup-card")
            assert warnings_shown(app) == []


def test_a_card_that_breaks_it_is_saved_warned_about_and_the_game_starts(
        store: MemoryStore) -> None:
    with open_app(store, "/new/village") as app:
        to_check_step(app)
        tap(app, "estimate-tab-setup_cards")
        tap(app, "estimate-correct")  # the 2-player setup card
        app.set_value(fields_in(app, "estimate-setup_cards")["Into the bag, per colour"], "4")
        tap(app, "estimate-save")
        assert "Corrected by you" in texts_under(app, "estimate-setup_cards")  # not refused
        expected = EN.t(WARNING, players=2, added=16, drawn=18)
        assert expected.startswith("Setup card, 2 players: 16 influence cubes go into the bag")
        assert warnings_shown(app) == [expected]
        tap(app, "estimate-tab-time_track_length")  # still said on every value of the check
        assert warnings_shown(app) == [expected]
        start_anyway(app)
        (summary,) = store.list_sessions()
        assert app.page.views[-1].route == f"/play/village/{summary.id}"
        session = HUB.get(summary.id).session  # type: ignore[union-attr]
        assert session.comp.setup_card(2).bag_per_colour == 4  # played as the players said


def test_the_warning_stays_until_the_card_is_fixed(store: MemoryStore) -> None:
    store_card(store, 2, 4)
    with open_app(store, "/new/village") as app:
        to_check_step(app)
        assert warnings_shown(app) == [EN.t(WARNING, players=2, added=16, drawn=18)]
        tap(app, "estimate-tab-setup_cards")
        tap(app, "estimate-correct")
        app.set_value(fields_in(app, "estimate-setup_cards")["Into the bag, per colour"], "5")
        tap(app, "estimate-save")
        assert warnings_shown(app) == []
    card = store.get_setting("calibration:village:big-box")["setup_cards"]["2"]
    assert card["bag_per_colour"] == 5


def test_only_the_card_of_this_games_player_count_is_warned_about(store: MemoryStore) -> None:
    store_card(store, 3, 5)  # 20 cubes in, 21 drawn: the 3-player card only
    with open_app(store, "/new/village") as app:
        to_check_step(app, players=2)
        assert warnings_shown(app) == []
    with open_app(store, "/new/village") as app:
        to_check_step(app, players=3)
        assert warnings_shown(app) == [EN.t(WARNING, players=3, added=20, drawn=21)]


def test_the_warning_is_in_the_players_language(store: MemoryStore) -> None:
    store_card(store, 2, 4)
    for lang, locale in (("de", "de-DE"), ("ko", "ko-KR"), ("zh_Hant", "zh-TW")):
        tr = Translator(lang)
        client = FakeClient(locales=(locale,), initial_route="/new/village")
        with AppHarness(store, routes=village_only_routes(), client=client) as app:
            tap(app, "count-2")
            app.click(tr.t("village.wizard.next"))
            for seat, name in enumerate(["Ann", "Bo"]):
                field = cast(ft.TextField,
                             cast(ft.Semantics, find_id(app, f"seat-name-{seat}")).content)
                app.set_value(field, name)
            app.click(tr.t("village.wizard.next"))
            app.click(tr.t("village.wizard.next"))
            text = tr.t(WARNING, players=2, added=16, drawn=18)
            assert text != EN.t(WARNING, players=2, added=16, drawn=18)
            assert warnings_shown(app) == [text]


def test_church_costs_and_travel_cities_are_asked_with_a_drawing(store: MemoryStore) -> None:
    """Issue 10, item 6: values read out of an example (church grain per level) or out of
    the score table (the map's cities) are estimates the players check; the final-turns
    reading is a rule, not a component, so the check does not ask it."""
    with open_app(store, "/new/village") as app:
        to_check_step(app)
        tabs = [c.identifier for c, _ in app.walk(find_id(app, "component-check"))
                if isinstance(c, ft.Semantics) and (c.identifier or "").startswith("estimate-tab")]
        assert {"estimate-tab-church_advance_grain", "estimate-tab-travel_cities"} <= set(tabs)
        assert "estimate-tab-final_turns_market" not in tabs
        tap(app, "estimate-tab-travel_cities")
        assert EN.t("village.schematic.travel", count=6) in texts_under(app, "schematic-travel")
        tap(app, "estimate-tab-church_advance_grain")
        assert find_id(app, "schematic-church")
        tap(app, "estimate-correct")
        fields = fields_in(app, "estimate-church_advance_grain")
        assert [fields[f"Level {n}"].value for n in (2, 3, 4)] == ["1", "1", "2"]
        app.set_value(fields["Level 4"], "3")
        tap(app, "estimate-save")
        assert "Corrected by you" in texts_under(app, "estimate-church_advance_grain")
        start_anyway(app)
        (summary,) = store.list_sessions()
        session = HUB.get(summary.id).session  # type: ignore[union-attr]
        assert session.comp.v("church_advance_grain") == {"2": 1, "3": 1, "4": 3}
