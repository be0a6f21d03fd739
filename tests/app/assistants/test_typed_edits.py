"""The assistants' screens send edit models (issue 21, point 5): a value the model refuses
(a field the user typed) becomes the same field-naming refusal a stored edit's dict gets,
shown in the screen's banner, with nothing saved and nothing typed lost; never a
traceback. A stored log's dicts still load, and a model is stored as its dict was."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, cast

import pytest

from companion.app.assistants.hub import HUB
from companion.app.assistants.play import TallyScreen
from companion.feudum.tally import SetDecrees
from companion.small_city.tally import MeasurePollution
from companion.store.memory import MemoryStore
from companion.tally.api import Edit, EditRejected, SetField, TallyService, built
from companion.tally.errors import Problem
from companion.villagers.tally import Unlock

from ..conftest import ProblemStore
from ..harness import AppHarness
from .helpers import edits, start, texts_in
from .test_lifecycle import tally_screen

TYPED: Any = "3x"  # what a player typed, reaching the model unparsed


@pytest.fixture(autouse=True)
def fresh_hub() -> Iterator[None]:
    yield
    HUB._open.clear()


def _refusal(make: Callable[[], Edit]) -> list[Problem]:
    with pytest.raises(EditRejected) as info:
        built(make)
    return list(info.value.problems)


def _stored_refusal(game: str, names: list[str], raw: Mapping[str, object]) -> list[Problem]:
    """What the same edit as a dict (a stored log's) is refused with: today's wording."""
    svc = TallyService(MemoryStore())
    sid, session = svc.create(game, names)
    with pytest.raises(EditRejected) as info:
        svc.apply(sid, session, session.read_edit(raw))
    return list(info.value.problems)


@pytest.mark.parametrize(("game", "make", "raw"), [
    ("villagers", lambda: SetField(player=0, field="food", value=TYPED),
     {"type": "set", "player": 0, "field": "food", "value": "3x"}),
    ("feudum", lambda: SetDecrees(player=1, values=[4, TYPED]),
     {"type": "decrees", "player": 1, "values": [4, "3x"]}),
    ("small-city", lambda: MeasurePollution.model_validate({"towns": [
        {"player": 0, "residents": 2, "materials": TYPED, "parks": 1}]}),
     {"type": "pollution", "towns": [{"player": 0, "residents": 2, "materials": "3x",
                                      "parks": 1}]}),
])
def test_a_refused_built_edit_names_the_field_as_a_stored_dict_does(
        game: str, make: Callable[[], Edit], raw: Mapping[str, object]) -> None:
    problems = _refusal(make)
    assert problems == _stored_refusal(game, ["Ann", "Bo"], raw)
    assert problems and all(p.field != "(input)" for p in problems)  # a field is named


def test_a_model_is_stored_as_its_dict_was_and_a_stored_dict_still_loads() -> None:
    store = MemoryStore()
    svc = TallyService(store)
    sid, session = svc.create("villagers", ["Ann", "Bo"])
    svc.apply(sid, session, Unlock(player=1, owner=0))
    svc.apply(sid, session, session.read_edit({"type": "unlock", "player": 0,
                                               "owner": None}))  # a log's dict
    stored = [e["edit"] for e in store.load(sid).events]
    assert stored == [{"type": "unlock", "player": 1, "owner": 0},
                      {"type": "unlock", "player": 0, "owner": None}]
    again = svc.open(sid)
    assert again.events == session.events and again.state == session.state


def test_an_edit_of_another_game_is_refused_naming_the_type() -> None:
    svc = TallyService(MemoryStore())
    sid, session = svc.create("villagers", ["Ann", "Bo"])
    with pytest.raises(EditRejected) as info:
        svc.apply(sid, session, SetDecrees(player=0, values=[3]))
    assert [p.field for p in info.value.problems] == ["type"]
    assert session.events == []


def _banner(app: AppHarness) -> list[str]:
    return [t for c, _ in app.walk(visible_only=True)
            for t in app.own_texts(c) if t.startswith("Food") or "integer" in t]


def test_the_screen_shows_a_refused_typed_value_beside_its_field(store: ProblemStore) -> None:
    with AppHarness(store) as app:
        sid = start(app, "Villagers", "Ann", "Bo")
        app.click("Increase Food")
        screen: TallyScreen = tally_screen(app)
        saved = edits(store, sid)
        then: list[bool] = []
        app.loop.call_soon(lambda: screen.edit(
            lambda: SetField(player=0, field="food", value=TYPED),
            then=lambda: then.append(True)))  # on the page's loop, as a tap's handler
        app.settle()  # no crash (settle raises on one)
        expected = _stored_refusal("villagers", ["Ann", "Bo"],
                                   {"type": "set", "player": 0, "field": "food",
                                    "value": "3x"})
        assert screen.problems == expected
        shown = [screen.problem_text(p) for p in expected]
        assert shown and all(line in app.visible_texts() for line in shown)
        assert edits(store, sid) == saved and then == []  # nothing saved, drafts kept
        assert "Ann: draft 3 · build 2" in texts_in(app, "limits")  # the game goes on
        app.click("Increase Food")  # and the next edit clears the refusal
        assert screen.problems == []
        assert edits(store, sid)[-1] == {"type": "set", "player": 0, "field": "food",
                                         "value": 2}


def test_a_dialog_save_gets_the_refusal_back_unsaved(store: ProblemStore) -> None:
    with AppHarness(store) as app:
        sid = start(app, "Small City", "Ann", "Bo")
        screen = tally_screen(app)
        saved = edits(store, sid)
        outcome = cast(Any, None)

        async def save() -> None:
            nonlocal outcome
            outcome = await screen.save(lambda: SetField(player=0, field="money",
                                                         value=TYPED))

        app.loop.call_soon(lambda: screen.run(save()))
        app.settle()
        assert outcome is not None and not outcome.ok
        assert [p.field for p in outcome.problems] == ["value"]
        assert edits(store, sid) == saved
