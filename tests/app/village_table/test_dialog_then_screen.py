"""A dialog answered and a screen opened by the same change: the screen opens only once
the phone has closed the dialog. Flet's web client closes a dialog by popping its top
route; a view pushed in the same update was popped instead, and the answered question
stayed drawn over the table (found in the solo browser flow: the game's last death, whose
answer opens the final round-end screen)."""

from __future__ import annotations

import asyncio
import copy

import flet as ft
import pytest
from flet.messaging.protocol import MessageAction

from companion.app.kit import dialog_settle
from companion.store.memory import MemoryStore
from companion.village import table_marks
from companion.village.commands import ChooseDeath
from companion.village.read import Reader
from companion.village.session import VillageSession

from ..harness import AppHarness
from .conftest import make_game, open_app, open_dialogs, tap
from .test_round_end_screen import play


def death_ends_the_round(session: VillageSession) -> bool:
    """A death is owed, and choosing the first candidate ends the round."""
    st = session.state
    if not st.pending or st.pending[0].kind != "death" or st.pending[0].player is None:
        return False
    member = Reader(st, session.comp).death_candidates(st.pending[0].player)[0]
    trial = copy.deepcopy(session)
    trial.execute(ChooseDeath(member=member.id))
    return table_marks.scope(trial.state) > table_marks.scope(st)


def a_death_that_ends_the_round(store: MemoryStore) -> tuple[str, str]:
    sid = make_game(store, players=2, seed=1)  # a death ends round 4 (found by a search)
    session = play(store, sid, death_ends_the_round, seed=1)
    st = session.state
    assert st.pending[0].player is not None
    member = Reader(st, session.comp).death_candidates(st.pending[0].player)[0]
    return sid, member.id


def patched_ids(app: AppHarness, since: int) -> set[int]:
    """The controls whose subtrees the server patched in its messages from `since` on."""
    return {m.body.id for m in app.conn.messages[since:]
            if m.action == MessageAction.PATCH_CONTROL}


def answer(app: AppHarness, member: str) -> ft.DialogControl:
    [dialog] = open_dialogs(app)
    tap(app, f"death-{member}")
    return dialog


def test_the_round_end_opens_once_the_phone_closed_the_death_dialog(
        store: MemoryStore) -> None:
    sid, member = a_death_that_ends_the_round(store)
    table = f"/play/village/{sid}"
    with open_app(store, table) as app:
        app.client_dismisses = False  # this test reports the dismissal itself
        app.strict = False  # the table's new state is held back meanwhile (see below)
        sent = len(app.conn.messages)
        dialog = answer(app, member)
        assert not dialog.open  # closed on the server at once
        assert app.page.route == table  # the round end waits for the phone
        assert [v.route for v in app.page.views][-1] == table
        # Only the dialog's close went out: the new round's table is not shown (and
        # cannot be tapped) before the round end covers it.
        assert patched_ids(app, sent) <= {dialog._i}
        app.client_dismisses = True  # the phone's close animation ends
        app.strict = True  # from here the phone shows what the server holds
        app.settle()
        assert app.page.route == f"{table}/round-end"
        assert open_dialogs(app) == []


def test_a_phone_that_never_confirms_the_close_still_gets_the_round_end(
        store: MemoryStore, monkeypatch: pytest.MonkeyPatch) -> None:
    sid, member = a_death_that_ends_the_round(store)
    monkeypatch.setattr(dialog_settle, "SETTLE_TIMEOUT_S", 0.05)
    with open_app(store, f"/play/village/{sid}") as app:
        app.client_dismisses = False  # the phone went away: no dismissal ever comes
        app.strict = False  # the table's new state is held back until the timeout
        answer(app, member)
        app._run(asyncio.sleep(0.2))  # the timeout passes
        app.strict = True
        app.settle()
        assert app.page.route == f"/play/village/{sid}/round-end"
