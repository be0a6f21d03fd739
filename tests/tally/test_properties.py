"""Properties of every tally game: undo/redo is an identity, replaying the log rebuilds the
state, refused edits change nothing, a new edit clears redo."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.tally.errors import EditRejected
from companion.tally.session import TallySession

from .helpers import new

PLAYERS = ("Ann", "Bo", "Cy")
small = st.integers(min_value=-2, max_value=12)
player = st.integers(min_value=0, max_value=len(PLAYERS))  # one past the end: refused


def field_edits(fields: tuple[str, ...]) -> st.SearchStrategy[dict[str, Any]]:
    return st.one_of(
        st.fixed_dictionaries({"type": st.just("set"), "player": player,
                               "field": st.sampled_from(fields), "value": small}),
        st.fixed_dictionaries({"type": st.just("adjust"), "player": player,
                               "field": st.sampled_from(fields), "delta": small}))


SMALL_CITY = st.one_of(
    field_edits(("money", "votes", "pollution")),
    st.fixed_dictionaries({"type": st.just("pick"), "player": player,
                           "position": st.integers(0, 8)}),
    st.fixed_dictionaries({"type": st.just("step"), "round": st.integers(0, 9),
                           "phase": st.integers(1, 8)}),
    st.fixed_dictionaries({"type": st.just("vote"), "player": player,
                           "residences": st.lists(st.integers(0, 6), max_size=3),
                           "university": st.booleans()}),
    st.fixed_dictionaries({"type": st.just("trade"), "player": player,
                           "kind": st.just("money_to_votes"), "dollars": st.integers(0, 5)}),
    st.fixed_dictionaries({"type": st.just("pollution"), "towns": st.lists(
        st.fixed_dictionaries({"player": player, "residents": small, "materials": small,
                               "parks": small}), min_size=3, max_size=3)}),
    st.fixed_dictionaries({"type": st.just("keep_promise"), "player": player,
                           "card": st.integers(1, 5), "value": st.sampled_from([6, 12, 18])}),
    st.fixed_dictionaries({"type": st.just("promise_result"), "card": st.integers(1, 5),
                           "fulfilled": st.sampled_from([True, False, None])}),
)
FEUDUM = st.one_of(
    field_edits(("vp", "shillings", "sulfur", "fief", "farm")),
    st.fixed_dictionaries({"type": st.just("roll"), "source": st.just("app")}),
    st.fixed_dictionaries({"type": st.just("roll"), "source": st.just("manual"),
                           "face": st.integers(0, 7)}),
    st.fixed_dictionaries({"type": st.just("take_tile"),
                           "region": st.sampled_from(["ocean", "forest", "nowhere"])}),
    st.fixed_dictionaries({"type": st.just("journey"), "player": player,
                           "stage": st.integers(0, 4), "position": st.integers(0, 3)}),
    st.fixed_dictionaries({"type": st.just("dawn"), "epoch": st.integers(2, 3),
                           "players": st.just([{"player": i, "vassal": True}
                                               for i in range(3)])}),
)
VILLAGERS = st.one_of(
    field_edits(("money", "food", "builders", "villagers", "coins_on_cards")),
    st.fixed_dictionaries({"type": st.just("unlock"), "player": player,
                           "owner": st.one_of(st.none(), player)}),
    st.fixed_dictionaries({"type": st.just("market"), "which": st.integers(1, 2),
                           "players": st.just([{"player": i, "gold_icons": i}
                                               for i in range(3)])}),
)
GAMES = {"small-city": SMALL_CITY, "feudum": FEUDUM, "villagers": VILLAGERS}

# An action is an edit (dict), "undo", "redo" or "finish".
actions = st.sampled_from(sorted(GAMES)).flatmap(
    lambda game: st.tuples(st.just(game), st.lists(
        st.one_of(GAMES[game], st.sampled_from(["undo", "redo", "finish"])), max_size=30)))


def run(session: TallySession[Any], action: Any) -> None:
    if action == "undo":
        session.undo()
    elif action == "redo":
        session.redo()
    else:
        edit = {"type": "finish"} if action == "finish" else action
        before = (session.state, session.events, session.redo_stack)
        try:
            session.apply(session.read_edit(edit))
        except EditRejected:
            assert (session.state, session.events, session.redo_stack) == before
        else:
            assert session.redo_stack == []


@settings(max_examples=150, deadline=None)
@given(actions)
def test_undo_redo_and_replay_identities(case: tuple[str, list[Any]]) -> None:
    game, steps = case
    session = new(game, *PLAYERS)
    for action in steps:
        run(session, action)
        # Replay identity: the log alone rebuilds the state (and the finished flag).
        replayed = TallySession(session.rules, session.setup, session.events,
                                session.redo_stack)
        assert replayed.state == session.state
        assert replayed.finished == session.finished
    # Undo/redo identity: undoing everything and redoing it all lands on the same state.
    state, events = session.state, session.events
    count = len(events)
    for _ in range(count):
        assert session.undo()
    assert session.state == session.rules.start(session.setup)
    for _ in range(count):
        assert session.redo()
    assert session.state == state and session.events == events
