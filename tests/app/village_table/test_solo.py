"""Solo: Karla's take is shown at once with the reason, her board and fate tiles follow."""

from __future__ import annotations

import random

from companion.app.village.hub import HUB
from companion.store.memory import MemoryStore
from companion.village.autoplay import play_step
from companion.village.commands import EndTurn, TakeCube
from companion.village.outcomes import BagOutcome
from companion.village.rules.bag import draw_placements
from companion.village.rules.context import Ctx
from companion.village.service import VillageService

from .conftest import (
    expand_instructions,
    find_id,
    make_game,
    open_app,
    open_dialogs,
    tap,
    texts_under,
)
from .test_table import cube_id, first_cube


def test_karla_take_is_announced_then_shown_after_your_turn(store: MemoryStore) -> None:
    sid = make_game(store, solo=True)
    space, colour = first_cube(store, sid)
    with open_app(store, f"/play/village/{sid}") as app:
        assert "Karla has not taken a cube yet." in texts_under(app, "karla-board")
        tap(app, cube_id(store, sid, space, colour))
        due = texts_under(app, "karla-due")
        assert due[0] == "When your turn ends, Karla takes:"
        assert any(t.startswith("Karla takes") for t in due), due
        app.click("End turn")
        state = HUB.get(sid).session.state  # type: ignore[union-attr]
        assert state.karla is not None and state.karla.last_space == 0
        # said at once: her board is below the fold on a phone
        said = app.toasts()
        assert any(t.startswith("Karla takes") and "\nWhy:" in t for t in said), said
        board = texts_under(app, "karla-board")
        assert any(t.startswith("Karla's last cube: from") for t in board), board
        assert any(t.startswith("Karla takes") for t in board), board
        assert any(t.startswith("Why:") for t in board), board
        expand_instructions(app)
        notes = texts_under(app, "table-notes")
        assert any(t.startswith("Karla takes") for t in notes), notes
        assert app.find_all(identifier="karla-due") == []


def test_fate_tiles_show_their_faces(store: MemoryStore) -> None:
    sid = make_game(store, solo=True, seed=4)
    svc = VillageService(store)
    session = svc.open(sid)
    rng = random.Random(4)
    # Play until Karla's second cube has passed the first top fate tile.
    while session.state.karla is not None and session.state.karla.last_space < 1:
        play_step(session, rng)
    svc.store.replace_log(sid, session.events, session.redo_stack)
    karla = session.state.karla
    assert karla is not None and karla.fate["top"][0]
    face = "quill" if karla.quill["top"] == 0 else "blank"
    with open_app(store, f"/play/village/{sid}") as app:
        assert find_id(app, f"fate-top-0-{face}")
        assert find_id(app, "fate-top-1-down")
        assert find_id(app, "fate-bottom-0-down")


def test_manual_fate_flip_is_asked(store: MemoryStore) -> None:
    sid = make_game(store, solo=True, draw_mode="manual", seed=2)
    svc = VillageService(store)
    session = svc.open(sid)
    placements = draw_placements(Ctx(session.state, session.comp), random.Random(2))
    svc.enter_draw(sid, session, BagOutcome(placements=placements))
    rng = random.Random(2)
    while not (session.state.pending and session.state.pending[0].draw == "fate"):
        play_step(session, rng)
        svc.store.replace_log(sid, session.events, session.redo_stack)
    with open_app(store, f"/play/village/{sid}") as app:
        texts = texts_under(app, "form-fate")
        assert any("flip the" in t for t in texts), texts
        tap(app, "fate-blank")
        state = HUB.get(sid).session.state  # type: ignore[union-attr]
        assert state.karla is not None and state.karla.fate["top"][0]
        assert find_id(app, "fate-top-0-blank")
        body = store.load(sid).events[-1]["body"]
        assert body["draw"] == "fate" and body["source"] == "manual"


def test_karla_cube_choice_dialog(store: MemoryStore) -> None:
    svc = VillageService(store)
    # Play random solo games until Karla has a choice of cubes (a seed-independent search:
    # which game gets there first depends on the component estimates).
    for seed in range(1, 30):
        sid = make_game(store, solo=True, seed=seed)
        session = svc.open(sid)
        rng = random.Random(seed)
        for _ in range(400):
            if session.state.pending and session.state.pending[0].kind == "karla_cube":
                break
            if session.state.phase == "finished":
                break
            play_step(session, rng)
        if session.state.pending and session.state.pending[0].kind == "karla_cube":
            break
    else:
        raise AssertionError("no Karla choice came up in 29 games")
    svc.store.replace_log(sid, session.events, session.redo_stack)
    pending = session.state.pending[0]
    option = str(pending.detail.options[0])
    with open_app(store, f"/play/village/{sid}") as app:
        texts = texts_under(app, "dialog-karla-cube")
        assert any(t.startswith("Karla takes a cube from") for t in texts), texts
        assert any(t.startswith("Why:") for t in texts), texts
        tap(app, f"karla-choice-{option}")
        state = HUB.get(sid).session.state  # type: ignore[union-attr]
        assert not (state.pending and state.pending[0].kind == "karla_cube")
        assert open_dialogs(app) == [] or state.pending


def test_d4_roll_is_asked_when_drawing_physically(store: MemoryStore) -> None:
    sid = make_game(store, solo=True, draw_mode="manual", variant="d4", seed=3)
    svc = VillageService(store)
    session = svc.open(sid)
    placements = draw_placements(Ctx(session.state, session.comp), random.Random(3))
    svc.enter_draw(sid, session, BagOutcome(placements=placements))
    space, colour = next((s, c[0]) for s, c in session.state.spaces.items()
                         if c and s != "market")
    svc.execute(sid, session, TakeCube(space=space, colour=colour))
    svc.execute(sid, session, EndTurn())
    assert session.state.pending[0].draw == "d4"
    with open_app(store, f"/play/village/{sid}") as app:
        assert find_id(app, "form-d4")
        board_colours = {c for cubes in session.state.spaces.values() for c in cubes}
        pick = next(c for c in ("brown", "pink", "orange", "green") if c in board_colours)
        tap(app, f"d4-{pick}")
        rolls = [e["body"] for e in store.load(sid).events if e["body"].get("draw") == "d4"]
        assert rolls == [{"type": "chance", "draw": "d4", "outcome": {"colour": pick},
                          "source": "manual", "redraw": False}]
        assert app.find_all(identifier="form-d4") == []


def test_karla_take_and_why_sit_under_the_turn_after_end_turn_on_the_table(
        store: MemoryStore) -> None:
    """Issue 20: her take and reasons in a card under whose turn it is, not only in a
    message and on her board far down; the table goes back to its top for the new turn."""
    sid = make_game(store, solo=True)
    space, colour = first_cube(store, sid)
    with open_app(store, f"/play/village/{sid}") as app:
        assert app.find_all(identifier="karla-take-now") == []
        scrolled = len(app.client.calls("ListView", "scroll_to"))
        tap(app, cube_id(store, sid, space, colour))
        # A cube taken leaves the list where it is (a space low on the list stays there).
        assert len(app.client.calls("ListView", "scroll_to")) == scrolled
        app.click("End turn")
        karla = texts_under(app, "karla-take-now")
        assert any(t.startswith("Karla takes") for t in karla), karla
        assert any("\nWhy:" in t or t.startswith("Why:") for t in karla), karla
        assert "Ann's turn is over. What changed:" in texts_under(app, "last-turn")
        assert len(app.client.calls("ListView", "scroll_to")) > scrolled
        # Undone, the card goes with the turn it described.
        tap(app, "undo")
        assert app.find_all(identifier="karla-take-now") == []
