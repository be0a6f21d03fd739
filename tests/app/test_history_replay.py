"""Issue 14, after the game: Home's finished games from the history cache (warmed at
server start), the edition filter, the step-by-step replay of a finished Village game
(read only) and the read-only log of a finished game. Headless harness throughout."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import flet as ft
import pytest
from flet.controls.base_control import BaseControl

from companion.app.history.replay import build_replay
from companion.app.store_access import warm_history
from companion.history.cache import history_cache
from companion.store.memory import MemoryStore
from companion.store.tinydb_store import TinyDBStore
from companion.village.service import VillageService
from tests.history.helpers import finished_village, village

from .conftest import ProblemStore
from .harness import AppHarness, FakeClient
from .tap_targets import tap_target_problems
from .test_no_english import LANGUAGES, english_in


def add(store: MemoryStore | TinyDBStore, sid: str, game: str, summary: dict[str, Any]) -> None:
    store.create(sid, game, sid, {})
    store.update_info(sid, finished=True, summary=summary)


def tap(app: AppHarness, identifier: str) -> None:
    holder = app.find(identifier=identifier)
    app.dispatch(cast(BaseControl, getattr(holder, "content", None)), "click")


def text_of(app: AppHarness, identifier: str) -> str:
    holder = app.find(identifier=identifier)
    return "\n".join(t for c, _ in app.walk(holder) for t in app.own_texts(c))


# ---- Home reads the history cache -------------------------------------------------------


def test_home_lists_finished_games_from_the_warmed_cache(tmp_path: Path) -> None:
    store = TinyDBStore(tmp_path)
    for i in range(12):
        add(store, f"g{i:02d}", "village", village({"Ann": 40 + i, "Bo": 30},
                                                   day=f"2024-04-{1 + i:02d}"))
    store.create("open-1", "village", "Open game", {})
    assert warm_history(store) == 12  # what the server does at start, on the store thread
    calls: list[int] = []
    listing = store.list_sessions

    def counted() -> Any:
        calls.append(1)
        return listing()

    store.list_sessions = counted  # type: ignore[method-assign]
    with AppHarness(store) as app:
        texts = app.visible_texts()
        assert "Open game" in texts
        assert len(app.find_all(identifier="home-history-g11")) == 1  # newest first
        assert any("Scores: Ann 51, Bo 30" in t and "Winner: Ann" in t for t in texts)
        assert calls == []  # the warmed cache answered: no listing of every game
        history_next = [c for c, _ in app.find_all("Next page")][-1]
        app.dispatch(history_next, "click")
        assert app.find_all(identifier="home-history-g01")
        assert not app.find_all(identifier="home-history-g11")
        homes = [c for c, _ in app.walk(app.page.views[-1])
                 if isinstance(c, ft.Semantics)
                 and (c.identifier or "").startswith("home-history-")]
        assert len(homes) == 2  # the client holds only the page it shows
    assert calls == []


def test_home_sees_a_game_finished_after_the_warm_up(store: ProblemStore) -> None:
    warm_history(store)
    add(store, "late", "village", village({"Ann": 7, "Bo": 9}))
    with AppHarness(store) as app:
        assert app.find_all(identifier="home-history-late")
    assert [r.id for r in history_cache(store).records(store)] == ["late"]


# ---- the edition filter -----------------------------------------------------------------


def test_history_filters_village_games_by_edition(store: ProblemStore) -> None:
    add(store, "bb", "village", village({"Ann": 40, "Bo": 30}, day="2024-05-01"))
    add(store, "old", "village", village({"Ann": 20, "Bo": 25}, day="2024-05-02",
                                         edition="2011"))
    with AppHarness(store, client=FakeClient(initial_route="/history")) as app:
        assert not app.find_all(identifier="history-edition-2011", visible_only=True)
        tap(app, "history-game-village")
        tap(app, "history-edition-2011")
        assert app.find_all(identifier="history-old")
        assert not app.find_all(identifier="history-bb")
        tap(app, "history-edition-big-box")
        assert app.find_all(identifier="history-bb")
        assert not app.find_all(identifier="history-old")
        tap(app, "history-game-all")  # another game: the edition filter is dropped
        assert app.find_all(identifier="history-bb") and app.find_all(identifier="history-old")


# ---- the replay -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def finished_store() -> MemoryStore:
    store = MemoryStore()
    finished_village(VillageService(store), ["Ann", "Bo"], seed=3)
    return store


def game_id(store: MemoryStore) -> str:
    [info] = store.list_sessions()
    return info.id


def test_replay_steps_through_the_game(finished_store: MemoryStore) -> None:
    sid = game_id(finished_store)
    before = finished_store.load(sid)
    count = len(before.events)
    with AppHarness(finished_store,
                    client=FakeClient(initial_route=f"/history/replay/{sid}")) as app:
        assert text_of(app, "replay-step") == f"Step 1 of {count}"
        first_players = text_of(app, "replay-players")
        first_line = text_of(app, "replay-line")
        tap(app, "replay-forward")
        assert text_of(app, "replay-step") == f"Step 2 of {count}"
        assert text_of(app, "replay-line") != first_line
        tap(app, "replay-last")
        assert text_of(app, "replay-step") == f"Step {count} of {count}"
        assert "The game is over" in text_of(app, "replay-where")
        assert text_of(app, "replay-players") != first_players  # the counters moved
        forward = cast(ft.Semantics, app.find(identifier="replay-forward")).content
        assert cast(ft.OutlinedButton, forward).disabled
        tap(app, "replay-back")
        assert text_of(app, "replay-step") == f"Step {count - 1} of {count}"
        tap(app, "replay-first")
        assert text_of(app, "replay-step") == f"Step 1 of {count}"
        assert text_of(app, "replay-players") == first_players
        assert tap_target_problems(app) == []
    after = finished_store.load(sid)
    assert (after.version, after.events, after.redo) == (before.version, before.events,
                                                         before.redo)


def test_replay_jumps_by_turn_and_round(finished_store: MemoryStore) -> None:
    sid = game_id(finished_store)
    replay = build_replay(sid, finished_store)
    # worked out here from the folded steps, independently of companion.core.positions
    round_two = next(s.number for s in replay.steps if s.round == 2)
    last_round = max(s.round for s in replay.steps)
    last_round_start = next(s.number for s in replay.steps if s.round == last_round)
    takes = [s.number for s in replay.steps
             if s.entry.body.get("type") in ("take_cube", "well", "free_action")]
    count = len(replay.steps)
    with AppHarness(finished_store,
                    client=FakeClient(initial_route=f"/history/replay/{sid}")) as app:
        assert text_of(app, "replay-step") == f"Step 1 of {count}"
        assert text_of(app, "replay-where").startswith("Round 1 · ")
        for name in ("replay-previous-round", "replay-previous-turn"):
            holder = cast(ft.Semantics, app.find(identifier=name))
            assert cast(ft.OutlinedButton, holder.content).disabled
        tap(app, "replay-next-turn")
        assert text_of(app, "replay-step") == f"Step {takes[0]} of {count}"
        assert text_of(app, "replay-where").startswith("Round 1, turn 1 · ")
        tap(app, "replay-next-turn")
        assert text_of(app, "replay-step") == f"Step {takes[1]} of {count}"
        assert text_of(app, "replay-where").startswith("Round 1, turn 2 · ")
        tap(app, "replay-forward")  # into the middle of turn 2
        tap(app, "replay-previous-turn")  # back to its start
        assert text_of(app, "replay-step") == f"Step {takes[1]} of {count}"
        tap(app, "replay-previous-turn")
        assert text_of(app, "replay-step") == f"Step {takes[0]} of {count}"
        tap(app, "replay-next-round")
        assert text_of(app, "replay-step") == f"Step {round_two} of {count}"
        assert text_of(app, "replay-where").startswith("Round 2")
        tap(app, "replay-previous-round")
        assert text_of(app, "replay-step") == f"Step 1 of {count}"
        tap(app, "replay-last")
        tap(app, "replay-previous-round")
        assert text_of(app, "replay-step") == f"Step {last_round_start} of {count}"
        assert text_of(app, "replay-where").startswith(f"Round {last_round}")
        holder = cast(ft.Semantics, app.find(identifier="replay-next-round"))
        assert cast(ft.OutlinedButton, holder.content).disabled
        assert tap_target_problems(app) == []
    assert len(takes) == len(replay.game.turn_starts())


NAV = {"replay-back": "Previous step", "replay-forward": "Next step",
       "replay-previous-turn": "Previous turn", "replay-next-turn": "Next turn",
       "replay-previous-round": "Previous round", "replay-next-round": "Next round",
       "replay-first": "First step", "replay-last": "Last step"}


def test_replay_offers_no_command(finished_store: MemoryStore) -> None:
    sid = game_id(finished_store)
    with AppHarness(finished_store,
                    client=FakeClient(initial_route=f"/history/replay/{sid}")) as app:
        view = app.page.views[-1]
        names = sorted(str(c.tooltip) for c, _ in app.walk(view)
                       if isinstance(c, ft.IconButton))
        assert names == ["Back"]
        buttons = [c for c, _ in app.walk(view) if isinstance(
            c, ft.Button | ft.FilledButton | ft.OutlinedButton | ft.TextButton)]
        labels = sorted(str(cast(ft.Text, b.content).value) for b in buttons)
        assert labels == sorted(NAV.values())  # the eight ways to step, nothing else
        assert not app.find_all(identifier="undo") and not app.find_all(identifier="redo")
        assert not app.find_all(identifier="turn-buttons")


def test_replay_buttons_are_named_by_their_visible_labels(finished_store: MemoryStore) -> None:
    sid = game_id(finished_store)
    with AppHarness(finished_store,
                    client=FakeClient(initial_route=f"/history/replay/{sid}")) as app:
        for identifier, label in NAV.items():
            button = cast(ft.OutlinedButton,
                          cast(ft.Semantics, app.find(identifier=identifier)).content)
            assert cast(ft.Text, button.content).value == label
            assert button.icon is not None and (button.height or 0) >= 48
        assert label in app.visible_texts()
        assert tap_target_problems(app) == []


def cubes_shown(app: AppHarness) -> dict[str, list[str]]:
    """Each action space's cubes as the board draws them (from the cubes' identifiers)."""
    spaces = app.find(identifier="action-spaces")
    shown: dict[str, list[str]] = {}
    for control, _ in app.walk(spaces, visible_only=True):
        ident = getattr(control, "identifier", None) or ""
        if ident.startswith("cube-"):
            _, space, colour, _k = ident.split("-")
            shown.setdefault(space, []).append(colour)
    return {space: sorted(cubes) for space, cubes in shown.items()}


def test_replay_draws_the_board_at_each_step(finished_store: MemoryStore) -> None:
    sid = game_id(finished_store)
    game = build_replay(sid, finished_store).game
    seen_cubes = 0
    with AppHarness(finished_store,
                    client=FakeClient(initial_route=f"/history/replay/{sid}")) as app:
        for hop in range(12):
            number = int(text_of(app, "replay-step").split()[1])
            state = game.state_after(number)
            expected = {s: sorted(c) for s, c in state.spaces.items() if c}
            assert cubes_shown(app) == expected, number
            seen_cubes += sum(len(c) for c in expected.values())
            players = text_of(app, "replay-players")
            for p in state.players:
                assert f"Coins {p.coins} · Grain {p.grain} · Prestige {p.prestige}" in players
                assert f"Time {p.time + 1}/" in players
            if state.phase == "turns":  # the current player's tile says so, in words
                current = text_of(app, f"player-{state.current}")
                assert current.startswith(state.players[state.current].name)
                assert "now" in current.split("\n")[0]
            tap(app, "replay-next-turn" if hop % 3 else "replay-next-round")
        assert seen_cubes > 0
        assert not [t for t in app.visible_texts() if "\u25b6" in t]  # no "▶" box


def test_a_tap_on_the_replayed_board_does_nothing(finished_store: MemoryStore) -> None:
    sid = game_id(finished_store)
    before = finished_store.load(sid)
    with AppHarness(finished_store,
                    client=FakeClient(initial_route=f"/history/replay/{sid}")) as app:
        tap(app, "replay-next-turn")
        spaces = cast(ft.Semantics, app.find(identifier="action-spaces"))
        assert spaces.disabled  # the client greys nothing out but answers no tap
        shown = cubes_shown(app)
        texts = app.visible_texts()
        [cube] = [c for c, _ in app.walk(spaces) if isinstance(c, ft.Semantics)
                  and (c.identifier or "").startswith("cube-")][:1]
        app.dispatch(cast(BaseControl, cube.content), "click")
        tiles = [cast(ft.Semantics, app.find(identifier="player-0"))]
        assert all(cast(ft.Container, t.content).on_click is None for t in tiles)
        assert cubes_shown(app) == shown and app.visible_texts() == texts
        assert app.page.views[-1].route == f"/history/replay/{sid}"
    after = finished_store.load(sid)
    assert (after.version, after.events) == (before.version, before.events)


def test_a_solo_replay_shows_karlas_board() -> None:
    store = MemoryStore()
    sid = finished_village(VillageService(store), ["Cy"], seed=4, solo_game=True)
    game = build_replay(sid, store).game
    with AppHarness(store, client=FakeClient(initial_route=f"/history/replay/{sid}")) as app:
        assert app.find_all(identifier="karla-board")
        for _ in range(6):
            tap(app, "replay-next-round")
        number = int(text_of(app, "replay-step").split()[1])
        state = game.state_after(number)
        assert state.karla is not None and state.karla.last_space >= 0
        assert app.find_all(identifier="karla-last-take")
        assert cubes_shown(app) == {s: sorted(c) for s, c in state.spaces.items() if c}
        assert tap_target_problems(app) == []


def test_history_row_opens_the_replay(finished_store: MemoryStore) -> None:
    sid = game_id(finished_store)
    with AppHarness(finished_store, client=FakeClient(initial_route="/history")) as app:
        row = app.find(identifier=f"history-{sid}")
        [button] = [c for c, _ in app.walk(row) if isinstance(c, ft.IconButton)
                    and c.tooltip == "Replay step by step"]
        app.dispatch(button, "click")
        assert app.page.views[-1].route == f"/history/replay/{sid}"
        assert text_of(app, "replay-step").startswith("Step 1 of ")


def test_replay_of_a_game_that_is_not_village(store: ProblemStore) -> None:
    store.create("t1", "feudum", "t1", {"game": "feudum"})
    with AppHarness(store, client=FakeClient(initial_route="/history/replay/t1")) as app:
        assert text_of(app, "replay-step") == ("This game cannot be replayed: t1 is not a "
                                               "Village game")


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_replay_and_edition_filter_show_no_english(lang: str,
                                                    finished_store: MemoryStore) -> None:
    sid = game_id(finished_store)
    client = FakeClient(locales=(LANGUAGES[lang],), initial_route=f"/history/replay/{sid}")
    with AppHarness(finished_store, client=client) as app:
        tap(app, "replay-last")
        assert not english_in(lang, app.visible_texts())
    client = FakeClient(locales=(LANGUAGES[lang],), initial_route="/history")
    with AppHarness(finished_store, client=client) as app:
        tap(app, "history-game-village")
        assert not english_in(lang, app.visible_texts())


# ---- the log of a finished game ---------------------------------------------------------


def test_a_finished_games_log_is_read_only(finished_store: MemoryStore) -> None:
    sid = game_id(finished_store)
    version = finished_store.load(sid).version
    with AppHarness(finished_store,
                    client=FakeClient(initial_route=f"/play/village/{sid}/log")) as app:
        assert app.find_all(identifier="log-read-only")
        assert not [i for c, _ in app.walk(app.page.views[-1])
                    if isinstance(c, ft.Semantics)
                    and (i := c.identifier or "").startswith("go-back-")]
        for name in ("undo", "redo"):
            assert not app.find_all(identifier=name, visible_only=True)
        app.click("Replay step by step")
        assert app.page.views[-1].route == f"/history/replay/{sid}"
    assert finished_store.load(sid).version == version


def test_going_back_in_a_finished_game_is_refused(finished_store: MemoryStore) -> None:
    """A 'go back' on a copy that went stale as the game finished elsewhere."""
    from companion.app.village.log.screen import LogScreen

    sid = game_id(finished_store)
    version = finished_store.load(sid).version
    with AppHarness(finished_store,
                    client=FakeClient(initial_route=f"/play/village/{sid}/log")) as app:
        screens = [s for s in _screens(app) if isinstance(s, LogScreen)]
        assert screens
        app.loop.call_soon(screens[0]._ask_go_back, 0)
        app.settle()
        assert any("Not gone back: the game is finished" in t
                   for c, _ in app.walk(app.page) for t in app.own_texts(c))
    assert finished_store.load(sid).version == version


def _screens(app: AppHarness) -> list[Any]:
    import gc

    from companion.app.routing import Screen

    return [o for o in gc.get_objects() if isinstance(o, Screen)
            and getattr(o, "ctx", None) is not None and o.ctx.page is app.page]
