"""Choices the game waits for open as dialogs by themselves, and answering them moves on."""

from __future__ import annotations

import random

from companion.app.village.hub import HUB
from companion.store.memory import MemoryStore
from companion.village.commands import (
    Adjust,
    ChooseDeath,
    Church,
    EndTurn,
    MarketPass,
    MassBuyOut,
    Payment,
    SpendTime,
    TakeCube,
    Well,
)
from companion.village.outcomes import BagOutcome
from companion.village.rules.bag import draw_placements
from companion.village.rules.context import Ctx
from companion.village.rules.deaths import death_candidates
from companion.village.service import VillageService

from .conftest import (
    expand_instructions,
    fill_bag_form,
    find_id,
    make_game,
    open_app,
    open_dialogs,
    tap,
    texts_under,
)
from .test_table import first_cube


def owe_deaths(store: MemoryStore, sid: str, laps: int = 1) -> list[str]:
    """Ann takes a cube, her time passes the quill `laps` times, she ends the turn: the
    deaths wait. The kinds of the choices pending."""
    svc = VillageService(store)
    session = svc.open(sid)
    space, colour = first_cube(store, sid)
    svc.execute(sid, session, TakeCube(space=space, colour=colour))
    svc.execute(sid, session, SpendTime(player=0, amount=12 * laps))
    svc.execute(sid, session, EndTurn())
    return [p.kind for p in session.state.pending]


def owe_a_death(store: MemoryStore, sid: str) -> None:
    assert owe_deaths(store, sid)[0] == "death"


def test_death_dialog_appears_and_the_answer_moves_the_member(store: MemoryStore) -> None:
    sid = make_game(store)
    owe_a_death(store, sid)
    with open_app(store, f"/play/village/{sid}") as app:
        texts = texts_under(app, "dialog-death")
        assert any("oldest visible members" in t for t in texts), texts
        # Each candidate: where it is and where it would go.
        assert any(t.startswith("Ann's number-1 member — farmyard") for t in texts), texts
        assert "Goes to the village chronicle, Farm (2 slots free)" in texts, texts
        assert any(t.endswith("(×4, all alike)") for t in texts), texts
        tap(app, "death-red-1a")
        state = HUB.get(sid).session.state  # type: ignore[union-attr]
        assert state.members["red-1a"].loc == "chronicle:farm"
        assert open_dialogs(app) == []
        assert "Bo's turn" in app.visible_texts()
        expand_instructions(app)
        notes = texts_under(app, "table-notes")
        assert any("chronicle" in t for t in notes), notes


def test_a_hidden_question_comes_back_from_the_banner(store: MemoryStore) -> None:
    sid = make_game(store)
    owe_a_death(store, sid)
    with open_app(store, f"/play/village/{sid}") as app:
        tap(app, "dialog-hide")
        assert open_dialogs(app) == []
        assert "Ann must choose who dies." in texts_under(app, "banner-pending")
        app.click("Answer")
        assert find_id(app, "dialog-death")


def test_undo_from_inside_the_dialog(store: MemoryStore) -> None:
    sid = make_game(store)
    owe_a_death(store, sid)
    with open_app(store, f"/play/village/{sid}") as app:
        tap(app, "dialog-undo")
        state = HUB.get(sid).session.state  # type: ignore[union-attr]
        assert not state.pending and state.stage == "act"
        assert open_dialogs(app) == []


def test_compensation_cube_of_choice(store: MemoryStore) -> None:
    sid = make_game(store, players=4, compensation=True, start_player=0)
    with open_app(store, f"/play/village/{sid}") as app:
        texts = texts_under(app, "dialog-compensation")
        assert any("Di sits in seat 4" in t for t in texts), texts
        tap(app, "compensation-green")
        state = HUB.get(sid).session.state  # type: ignore[union-attr]
        assert state.players[3].cubes.get("green") == 1
        assert state.round == 1 and open_dialogs(app) == []


def test_manual_start_player_then_bag_entry(store: MemoryStore) -> None:
    sid = make_game(store, draw_mode="manual", start_player=None)
    with open_app(store, f"/play/village/{sid}") as app:
        assert find_id(app, "form-start-player")
        tap(app, "start-player-1")
        assert HUB.get(sid).session.state.start_player == 1  # type: ignore[union-attr]
        # The bag form comes next by itself; an incomplete entry is refused, kept, named.
        assert find_id(app, "form-bag")
        session = HUB.get(sid).session  # type: ignore[union-attr]
        bag = dict(session.state.bag)
        tap(app, "bag-brush-brown")
        tap(app, "bag-slot-harvest-0")
        tap(app, "bag-save")
        texts = texts_under(app, "form-bag")
        assert "Harvest: a slot is still empty" in texts
        quota = {s: n for s, n in session.comp.setup_card(2).spaces.items()}
        bag["brown"] -= 1
        fill_bag_form(app, quota, bag, skip=(("harvest", 0),), brush="brown")
        tap(app, "bag-save")
        assert {s: len(c) for s, c in session.state.spaces.items()} == quota
        body = store.load(sid).events[-1]["body"]
        assert body["draw"] == "bag" and body["source"] == "manual"
        assert open_dialogs(app) == []
        assert "Bo's turn" in app.visible_texts()


def test_bag_entry_cannot_use_more_cubes_than_the_bag_holds(store: MemoryStore) -> None:
    sid = make_game(store, draw_mode="manual")
    with open_app(store, f"/play/village/{sid}") as app:
        session = HUB.get(sid).session  # type: ignore[union-attr]
        scarce = min((c for c, n in session.state.bag.items() if n),
                     key=lambda c: session.state.bag[c])
        have = session.state.bag[scarce]
        tap(app, f"bag-brush-{scarce}")
        slots = [(s, k) for s, n in session.comp.setup_card(2).spaces.items() for k in range(n)]
        for space, k in slots[:have + 1]:
            tap(app, f"bag-slot-{space}-{k}")
        texts = texts_under(app, "form-bag")
        assert any(t.startswith("No ") and t.endswith("is left in the bag") for t in texts)
        assert "0 left" in texts
        # What was entered stays; tapping a painted slot again empties it.
        space, k = slots[0]
        tap(app, f"bag-slot-{space}-{k}")
        assert "1 left" in texts_under(app, "form-bag")
        assert session.state.pending  # nothing was sent


def play_to_mass(store: MemoryStore, draw_mode: str = "manual") -> str:
    """A 2-player game played (dumbly) to the end of round 1: the mass draw is next.
    Ann sends a member to church and has grain, so the mass waits for her to advance."""
    sid = make_game(store, draw_mode=draw_mode)  # type: ignore[arg-type]
    svc = VillageService(store)
    session = svc.open(sid)
    if draw_mode == "manual":
        placements = draw_placements(Ctx(session.state, session.comp), random.Random(3))
        svc.enter_draw(sid, session, BagOutcome(placements=placements))
    svc.execute(sid, session, Adjust(player=0, field="grain", delta=3))
    svc.execute(sid, session, Adjust(player=0, field="cubes", key="brown", delta=3))
    svc.execute(sid, session, Well(colour="brown"))
    svc.execute(sid, session, Church(member="red-1a", pay=Payment(time=3)))
    svc.execute(sid, session, EndTurn())
    while session.state.phase == "turns":
        st = session.state
        if st.pending:
            pending = st.pending[0]
            assert pending.kind == "death" and pending.player is not None
            member = death_candidates(Ctx(st, session.comp), pending.player)[0].id
            svc.execute(sid, session, ChooseDeath(member=member))
        elif st.market_day is not None:
            svc.execute(sid, session, MarketPass())
        elif st.stage == "take":
            space = next(s for s, c in st.spaces.items() if c)
            svc.execute(sid, session, TakeCube(space=space, colour=st.spaces[space][0]))
        else:
            svc.execute(sid, session, EndTurn())
    while session.state.phase == "mass_buyout" and not session.state.pending:
        buyer = session.state.mass.order[session.state.mass.index]  # type: ignore[union-attr]
        members = ["red-1a"] if buyer == 0 else []
        svc.execute(sid, session, MassBuyOut(members=members))
    return sid


def test_mass_entry_form(store: MemoryStore) -> None:
    """Manual draws: the mass draw is entered as monks and members."""
    sid = play_to_mass(store)
    pending = VillageService(store).open(sid).state.pending[0]
    assert pending.draw == "mass" and pending.detail.count == 3  # Ann bought one out
    with open_app(store, f"/play/village/{sid}") as app:
        assert find_id(app, "form-mass")
        app.click("More")
        app.click("More")
        tap(app, "mass-save")
        assert any("Draw exactly 3 items" in t for t in texts_under(app, "form-mass"))
        app.click("More")
        app.click("More")  # the bag holds 4 monks: a fifth cannot be chosen
        app.click("Fewer")
        tap(app, "mass-save")
        body = store.load(sid).events[-1]["body"]
        assert body["draw"] == "mass" and body["outcome"] == {"items": ["monk"] * 3}


def test_a_late_dismissal_of_the_first_dialog_leaves_the_second_in_charge(
        store: MemoryStore) -> None:
    """Two deaths owed at one turn's end: answering the first opens the second at once. The
    browser reports the first dialog's dismissal afterwards; the second must still be the
    one the table closes when it is answered (it once stayed on screen for good)."""
    sid = make_game(store)
    assert owe_deaths(store, sid, laps=2) == ["death", "death"]
    with open_app(store, f"/play/village/{sid}") as app:
        [first] = open_dialogs(app)
        tap(app, "death-red-1a")
        [second] = open_dialogs(app)
        assert second is not first
        # The harness reports the first's dismissal as the browser does: after the
        # second was shown (the close animation ends later); Flet then unmounts it.
        assert not any(c is first for c, _ in app.walk())
        assert open_dialogs(app) == [second]
        choices = [getattr(c, "identifier", None) for c, _ in app.walk(second)]
        death = next(i for i in choices if isinstance(i, str) and i.startswith("death-"))
        tap(app, death)
        assert open_dialogs(app) == [], "the second dialog stayed on screen once answered"
        assert not HUB.get(sid).session.state.pending  # type: ignore[union-attr]
