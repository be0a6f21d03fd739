"""The log: plain words, newest first, 20 to a page, and "go back to here"."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import flet as ft

from companion.app.village.hub import HUB
from companion.app.village.log.model import build_entries
from companion.app.village.log.words import SIMPLE, describe, source_text
from companion.i18n import Translator
from companion.store.memory import MemoryStore
from companion.village.autoplay import play_step
from companion.village.service import VillageService

from ..harness import AppHarness
from .conftest import make_game, open_app, tap, texts_under


def played(store: MemoryStore, steps: int, **kwargs: Any) -> str:
    """A game with `steps` random accepted commands, saved."""
    sid = make_game(store, **kwargs)
    svc = VillageService(store)
    session = svc.open(sid)
    rng = random.Random(7)
    for _ in range(steps):
        play_step(session, rng)
    svc.store.replace_log(sid, session.events, session.redo_stack)
    return sid


def rows(app: AppHarness) -> list[str]:
    return [str(c.identifier) for c, _ in app.walk(app.page.views[-1])
            if isinstance(c, ft.Semantics) and (c.identifier or "").startswith("log-")]


def words_ctx(language: str = "en") -> Any:
    """Just what the wording needs from an AppContext."""
    translator = Translator(language)
    return SimpleNamespace(t=translator.t, tn=translator.tn, translator=translator)


def test_log_is_paged_newest_first(store: MemoryStore) -> None:
    sid = played(store, 30)
    events = store.load(sid).events
    with open_app(store, f"/play/village/{sid}/log") as app:
        assert rows(app)[:2] == [f"log-{events[-1]['seq']}", f"log-{events[-2]['seq']}"]
        assert len(rows(app)) == 20
        pages = -(-len(events) // 20)
        assert f"Page 1 of {pages}" in app.visible_texts()
        app.click("Next page")
        assert rows(app)[0] == f"log-{events[-21]['seq']}"
        assert f"Page 2 of {pages}" in app.visible_texts()
        assert any(t.startswith(f"Events: {len(events)}") for t in app.visible_texts())
        assert app.find_all(identifier="undo") and app.find_all(identifier="redo")


def test_chance_entries_say_who_drew(store: MemoryStore) -> None:
    sid = make_game(store)
    with open_app(store, f"/play/village/{sid}/log") as app:
        texts = texts_under(app, "log-0")
        assert any(t.startswith("Bag draw: Harvest:") for t in texts), texts
        assert any(t.endswith("drawn by the app") for t in texts), texts


def test_go_back_to_an_entry_after_a_confirm(store: MemoryStore) -> None:
    sid = played(store, 12)
    events = store.load(sid).events
    target = events[3]
    with open_app(store, f"/play/village/{sid}/log") as app:
        tap(app, f"go-back-{target['seq']}")
        confirm = [c for c, _ in app.find_all("Go back to here")
                   if isinstance(c, ft.FilledButton)]
        app.dispatch(confirm[0], "click")
        session = HUB.get(sid).session  # type: ignore[union-attr]
        assert session.group == target["group"]
        kept = [e for e in events if e["group"] <= target["group"]]
        assert len(store.load(sid).events) == len(kept)
        assert rows(app)[0] == f"log-{kept[-1]['seq']}"
        assert any(t.endswith(f"can be redone: {len(session.redo_stack)}")
                   for t in app.visible_texts())
        tap(app, "redo")
        assert session.group == target["group"] + 1


def test_the_back_arrow_returns_to_the_table(store: MemoryStore) -> None:
    sid = make_game(store)
    with open_app(store, f"/play/village/{sid}/log") as app:
        app.click("Back")
        assert app.page.views[-1].route == f"/play/village/{sid}"
        assert "Ann's turn" in app.visible_texts()


def test_every_event_of_a_long_game_is_worded() -> None:
    """No event falls back to its bare type name or shows a raw placeholder."""
    store = MemoryStore()
    sid = played(store, 400, players=3, compensation=True, start_player=None)
    session = VillageService(store).open(sid)
    entries = build_entries(session.setup, session.comp, session.events)
    kinds = {e.body["type"] for e in entries}
    assert len(kinds) > 8, kinds
    for lang in ("en", "de"):
        ctx = words_ctx(lang)
        for entry in entries:
            text = describe(ctx, session.state, entry)
            assert text and text != entry.body["type"] and "{" not in text, (entry.body, text)
    ctx = words_ctx()
    actors = {e.actor for e in entries if e.body["type"] == "take_cube"}
    assert actors == {0, 1, 2}
    sources = {source_text(ctx, e) for e in entries if e.body["type"] == "chance"}
    assert "drawn by the app" in sources


def test_words_for_corrections_and_draws() -> None:
    store = MemoryStore()
    sid = make_game(store)
    session = VillageService(store).open(sid)
    ctx = words_ctx()
    state = session.state
    from companion.app.village.log.model import LogEntry

    def say(body: dict[str, Any], actor: int | None = 0) -> str:
        return describe(ctx, state, LogEntry(seq=0, group=1, at="", body=body, actor=actor))

    assert say({"type": "adjust", "player": 0, "field": "cubes", "key": "green",
                "delta": -2}) == "Correction: Ann, cubes (green) -2"
    assert say({"type": "take_cube", "space": "council", "colour": "plague"}) == \
        "Ann took plague from Council"
    assert say({"type": "chance", "draw": "mass", "source": "manual",
                "outcome": {"items": ["monk", "red-1a"]}}, None) == \
        "Drawn from the black bag: a monk, Ann's number-1 member"
    assert say({"type": "chance", "draw": "fate", "source": "app",
                "outcome": {"side": "top", "tile": 0, "quill": True}}, None).endswith(
        "the quill")
    assert say({"type": "well", "colour": "pink", "coins": 1}) == \
        "Ann used the well (3 × pink, 1 of them paid as coins)"
    assert say({"type": "mystery"}) == "mystery"


def test_every_command_type_has_its_own_words() -> None:
    """A new engine command must get a log sentence (else the log says 'unknown')."""
    from typing import get_args

    from companion.village.commands import Command

    union = get_args(Command)[0]
    kinds = {str(model.model_fields["type"].default) for model in get_args(union)}
    handled = set(SIMPLE) | {"take_cube", "well", "crafts_train", "council_privilege",
                             "choose_compensation_cube", "mass_buyout", "mass_advance",
                             "karla_choose_cube", "adjust", "override_score"}
    assert kinds - handled == set()


def test_a_draw_the_app_made_names_no_phone(store: MemoryStore) -> None:
    """A phone's End turn that ends the round brings the app's draws (the mass, the next
    round's bag) into its group: the End turn names the phone, the draws do not (they
    read "drawn by the app · — Cy's phone" in a walk-through)."""
    from companion.village.commands import EndTurn
    from companion.village.service import VillageService

    from .test_round_end_screen import end_round_on_the_table

    sid = end_round_on_the_table(store)
    svc = VillageService(store)
    svc.execute(sid, svc.open(sid), EndTurn(), by={"seat": 1})
    group = store.load(sid).events[-1]["group"]
    ended = [e for e in store.load(sid).events if e["group"] == group]
    draws = [e for e in ended if e["body"]["type"] == "chance"]
    assert draws and all(e["body"]["source"] == "app" for e in draws)
    with open_app(store, f"/play/village/{sid}/log") as app:
        turn = texts_under(app, f"log-{ended[0]['seq']}")
        assert any("— Bo's phone" in t for t in turn), turn
        for draw in draws:
            texts = texts_under(app, f"log-{draw['seq']}")
            assert any("drawn by the app" in t for t in texts), texts
            assert not any("phone" in t for t in texts), texts
