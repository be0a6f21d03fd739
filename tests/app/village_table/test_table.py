"""The table screen, headless: taps dispatch commands, the view follows the state."""

from __future__ import annotations

import flet as ft

from companion.app.village.hub import HUB
from companion.app.village.table.cubes import DIMMED
from companion.store.memory import MemoryStore
from companion.village.commands import Adjust
from companion.village.service import VillageService

from .conftest import (
    expand_instructions,
    fill_bag_form,
    find_id,
    is_disabled,
    make_game,
    open_app,
    tap,
    texts_under,
)


def first_cube(store: MemoryStore, session_id: str, *, plague: bool = False) -> tuple[str, str]:
    state = VillageService(store).open(session_id).state
    for space, cubes in state.spaces.items():
        if space == "market":
            continue  # the market cube starts a market day
        for colour in sorted(cubes, key=lambda c: (c == "plague", c)):
            if (colour == "plague") == plague:
                return space, colour
    raise AssertionError("no such cube on the board")


def cube_id(store: MemoryStore, session_id: str, space: str, colour: str) -> str:
    return cube_id_in(VillageService(store).open(session_id).state.spaces, space, colour)


def taken_elsewhere(session_id: str, space: str, colour: str) -> str:
    """Another phone takes `colour` from `space` behind this screen's back: the id of a
    cube (on another space) that this screen still offers and the engine now refuses."""
    session = HUB.get(session_id).session  # type: ignore[union-attr]
    other = next(s for s, c in session.state.spaces.items()
                 if c and s not in ("market", space))
    stale = cube_id_in(session.state.spaces, other, session.state.spaces[other][0])
    session.execute({"type": "take_cube", "space": space, "colour": colour})
    return stale


def cube_id_in(spaces: dict[str, list[str]], space: str, colour: str) -> str:
    """The identifier the table gives that cube (cubes are shown sorted, plague last)."""
    ordered = sorted(spaces[space], key=lambda c: (c == "plague", c))
    return f"cube-{space}-{colour}-{ordered.index(colour)}"


def test_tapping_a_cube_records_the_take_and_undo_restores(store: MemoryStore) -> None:
    sid = make_game(store)
    space, colour = first_cube(store, sid)
    ident = cube_id(store, sid, space, colour)
    with open_app(store, f"/play/village/{sid}") as app:
        assert "Ann's turn" in app.visible_texts()
        assert is_disabled(app, "undo") and is_disabled(app, "redo")  # nothing done yet
        tap(app, ident)
        state = HUB.get(sid).session.state  # type: ignore[union-attr]
        assert state.players[0].cubes.get(colour) == 1 and state.stage == "act"
        assert store.load(sid).events[-1]["body"] == {"type": "take_cube", "space": space,
                                                      "colour": colour}
        assert f"{colour} ×1" in texts_under(app, "player-0")  # the count chip
        assert any(t.startswith("Ann: do the") for t in app.visible_texts())
        spaces = find_id(app, "action-spaces")  # no second cube this turn: all dimmed
        cubes = [c for c, _ in app.walk(spaces) if getattr(c, "on_click", None)]
        assert cubes and all(c.data == DIMMED for c in cubes)
        assert not is_disabled(app, "undo")
        tap(app, "undo")
        state = HUB.get(sid).session.state  # type: ignore[union-attr]
        assert state.players[0].cubes.get(colour, 0) == 0 and state.stage == "take"
        assert "No cubes" in texts_under(app, "player-0")
        assert "Ann: take a cube (or use the well)" in app.visible_texts()
        tap(app, "redo")
        assert HUB.get(sid).session.state.players[0].cubes.get(colour) == 1  # type: ignore[union-attr]


def test_end_turn_passes_to_the_next_player(store: MemoryStore) -> None:
    sid = make_game(store)
    space, colour = first_cube(store, sid)
    with open_app(store, f"/play/village/{sid}") as app:
        ident = cube_id(store, sid, space, colour)
        assert is_disabled(app, "turn-buttons")  # End turn waits for a cube
        tap(app, ident)
        app.click("End turn")
        assert "Bo's turn" in app.visible_texts()
        assert "Bo: take a cube (or use the well)" in app.visible_texts()


def test_plague_cube_costs_two_time(store: MemoryStore) -> None:
    sid = make_game(store, seed=1)
    space, colour = first_cube(store, sid, plague=True)
    with open_app(store, f"/play/village/{sid}") as app:
        tap(app, cube_id(store, sid, space, colour))
        assert HUB.get(sid).session.state.players[0].time == 2  # type: ignore[union-attr]
        assert any(t.startswith("Time 3/12") for t in texts_under(app, "player-0"))
        said = ("Ann took a plague cube from Harvest: it goes back to the supply\n"
                "It costs 2 time.")
        assert any(t.startswith(said) for t in app.visible_texts()), app.visible_texts()
        expand_instructions(app)
        notes = texts_under(app, "table-notes")
        assert any("plague" in t for t in notes), notes


def test_well_asks_for_a_colour_and_records_it(store: MemoryStore) -> None:
    sid = make_game(store)
    svc = VillageService(store)
    session = svc.open(sid)
    svc.execute(sid, session, Adjust(player=0, field="cubes", key="pink", delta=3))
    with open_app(store, f"/play/village/{sid}") as app:
        app.click("Well")
        assert find_id(app, "dialog-well")
        tap(app, "well-pink")
        state = HUB.get(sid).session.state  # type: ignore[union-attr]
        assert state.space_taken == "well" and state.players[0].cubes["pink"] == 0
        assert app.find_all(identifier="dialog-well") == []


def test_bag_contents_on_demand(store: MemoryStore) -> None:
    sid = make_game(store)
    with open_app(store, f"/play/village/{sid}") as app:
        app.click("Bag")
        texts = texts_under(app, "dialog-bag")
        assert any(t.startswith("Green bag:") for t in texts), texts
        assert "Monks in the black bag: 4" in texts


def test_the_rounds_draw_is_listed_and_can_be_replaced(store: MemoryStore) -> None:
    sid = make_game(store)
    with open_app(store, f"/play/village/{sid}") as app:
        expand_instructions(app)
        lines = texts_under(app, "round-draw")
        assert lines[0] == "Round 1: put these cubes on the board"
        assert any(t.startswith("Put on Harvest:") for t in lines)
        app.click("We drew physically")
        assert find_id(app, "form-bag")
        session = HUB.get(sid).session  # type: ignore[union-attr]
        quota = {s: len(c) for s, c in session.state.spaces.items()}
        bag = dict(session.state.bag)  # the board's cubes go back in before a redraw
        for cubes in session.state.spaces.values():
            for c in cubes:
                bag[c] = bag.get(c, 0) + 1
        fill_bag_form(app, quota, bag)
        tap(app, "bag-save")
        last = store.load(sid).events[-1]["body"]
        assert last["type"] == "chance" and last["source"] == "manual" and last["redraw"]
        assert app.find_all(identifier="form-bag") == []
        assert {s: len(c) for s, c in session.state.spaces.items()} == quota


def test_app_redraw_asks_first(store: MemoryStore) -> None:
    sid = make_game(store)
    with open_app(store, f"/play/village/{sid}") as app:
        before = len(store.load(sid).events)
        expand_instructions(app)
        app.click("Let the app draw again")
        app.click("OK")
        body = store.load(sid).events[-1]["body"]
        assert len(store.load(sid).events) == before + 1
        assert body["source"] == "app" and body["redraw"]


def test_refused_command_is_explained(store: MemoryStore) -> None:
    """Two phones: this one still shows the take stage when the other already took."""
    sid = make_game(store)
    space, colour = first_cube(store, sid)
    with open_app(store, f"/play/village/{sid}") as app:
        assert app.find_all("Free action") == []  # only in the final turns
        stale_id = taken_elsewhere(sid, space, colour)
        # The stale screen still offers the cubes: the engine refuses, the toast says why.
        tap(app, stale_id)
        # In words, never the command's field ("stage: …").
        assert any(t.startswith("Ann already took a cube")
                   for t in app.visible_texts()), app.visible_texts()


def test_missing_session_says_so(store: MemoryStore) -> None:
    with open_app(store, "/play/village/nosuchgame") as app:
        assert any(t.startswith("This game could not be opened") for t in app.visible_texts())


def test_touch_targets_on_the_table(store: MemoryStore) -> None:
    sid = make_game(store, players=5)
    with open_app(store, f"/play/village/{sid}") as app:
        view = app.page.views[-1]
        buttons = [c for c, _ in app.walk(view) if isinstance(
            c, ft.IconButton | ft.FilledButton | ft.OutlinedButton | ft.TextButton
            | ft.FilledTonalButton)]
        assert buttons
        for button in buttons:
            assert (button.height or 0) >= 48, button
        cubes = [c for c, _ in app.walk(view)
                 if isinstance(c, ft.Container) and c.on_click is not None]
        for cube in cubes:
            if cube.width is not None:
                assert cube.width >= 48 and (cube.height or 48) >= 48, cube


def test_panel_links_and_players_strip_navigate(store: MemoryStore) -> None:
    sid = make_game(store)
    with open_app(store, f"/play/village/{sid}") as app:
        tap(app, "player-1")
        assert app.page.route == f"/play/village/{sid}/player/1"
        app.set_route(f"/play/village/{sid}")
        app.click("Market")
        assert app.page.route == f"/play/village/{sid}/market"
        app.set_route(f"/play/village/{sid}")
        tap(app, "open-log")
        assert app.page.route == f"/play/village/{sid}/log"


def test_colour_only_setting_drops_the_letters(store: MemoryStore) -> None:
    store.set_setting("game.cube_display", "colour_only")
    sid = make_game(store)
    with open_app(store, f"/play/village/{sid}") as app:
        spaces = find_id(app, "action-spaces")
        letters = [c.value for c, _ in app.walk(spaces)
                   if isinstance(c, ft.Text) and c.value in ("B", "P", "O", "G")]
        assert letters == []
        assert any(isinstance(c, ft.Semantics) and c.label == "green"
                   for c, _ in app.walk(spaces))  # still named for screen readers


def test_mass_draw_can_be_redrawn_by_the_app(store: MemoryStore) -> None:
    from .test_pending import play_to_mass

    sid = play_to_mass(store, draw_mode="app")
    with open_app(store, f"/play/village/{sid}") as app:
        texts = texts_under(app, "banner-mass")
        assert "We drew physically" in texts and "Let the app draw again" in texts
        before = len(store.load(sid).events)
        app.click("Let the app draw again")
        app.click("OK")
        body = store.load(sid).events[-1]["body"]
        assert len(store.load(sid).events) == before + 1
        assert body["draw"] == "mass" and body["redraw"] and body["source"] == "app"


def test_refusal_is_worded_in_the_players_language(store: MemoryStore) -> None:
    """A keyed refusal is shown from the catalogue: Korean words, the field still named."""
    from ..harness import AppHarness, FakeClient
    from .conftest import village_only_routes

    sid = make_game(store)
    space, colour = first_cube(store, sid)
    client = FakeClient(initial_route=f"/play/village/{sid}", locales=("ko-KR",))
    with AppHarness(store, routes=village_only_routes(), client=client) as app:
        session = HUB.get(sid).session  # type: ignore[union-attr]
        other = next(s for s, c in session.state.spaces.items()
                     if c and s not in ("market", space))
        stale_id = cube_id_in(session.state.spaces, other, session.state.spaces[other][0])
        session.execute({"type": "take_cube", "space": space, "colour": colour})
        tap(app, stale_id)
        assert "Ann은(는) 이번 차례에 이미 큐브를 가져갔습니다. 먼저 차례를 끝내세요" \
            in app.visible_texts(), app.visible_texts()


def test_only_plague_cubes_are_outlined(store: MemoryStore) -> None:
    """A black plague cube vanishes on the dark theme's background without its outline."""
    sid = make_game(store, seed=1)
    plague_space, plague = first_cube(store, sid, plague=True)
    space, colour = first_cube(store, sid)
    with open_app(store, f"/play/village/{sid}") as app:
        outlined = find_id(app, cube_id(store, sid, plague_space, plague)).content
        plain_cube = find_id(app, cube_id(store, sid, space, colour)).content
        assert isinstance(outlined, ft.Container) and isinstance(plain_cube, ft.Container)
        assert outlined.border is not None and plain_cube.border is None
