"""The engine's read API (companion.village.read): the legal-command list is exactly what
the session accepts, and no question changes the game."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from companion.village.autoplay import play_step
from companion.village.commands import Payment
from companion.village.read import Reader, RuleError
from companion.village.session import VillageSession
from tests.village_rules.conftest import started


def _accepts(session: VillageSession, command: dict[str, Any]) -> bool:
    trial = VillageSession(session.setup, session.comp, copy.deepcopy(session.events),
                           draw_mode="manual")
    try:
        trial.execute(command)
    except RuleError:
        return False
    return True


def _brute_force(session: VillageSession) -> list[dict[str, Any]]:
    """Every candidate of a turn's kinds, asked of a whole session one by one."""
    st, comp = session.state, session.comp
    out: list[dict[str, Any]] = []
    cands: list[dict[str, Any]] = [{"type": "end_turn"}, {"type": "free_action"},
                                   {"type": "harvest"}, {"type": "hold_market"},
                                   {"type": "next_start_marker_coin"}]
    cands += [{"type": "take_cube", "space": s, "colour": c}
              for s in comp.v("action_spaces") for c in [*comp.v("influence_colours"),
                                                          "plague"]]
    if st.players:
        coins = st.players[st.current].coins
        cands += [{"type": "well", "colour": c, "coins": k}
                  for c in comp.v("influence_colours") for k in range(coins + 1)]
    for cand in cands:
        if _accepts(session, cand):
            out.append(cand)
    return out


def _turn_kinds(commands: list[dict[str, Any]]) -> set[tuple[Any, ...]]:
    """The commands as comparable tuples; a well counts once per colour (its cheapest)."""
    seen: set[tuple[Any, ...]] = set()
    wells: set[str] = set()
    for c in commands:
        if c["type"] == "well":
            wells.add(c["colour"])
        elif c["type"] in ("end_turn", "free_action", "harvest", "hold_market",
                           "next_start_marker_coin", "take_cube"):
            seen.add(tuple(sorted(c.items())))
    return seen | {("well", w) for w in wells}


@pytest.mark.parametrize("seed", [1, 7])
def test_legal_commands_are_exactly_what_the_session_accepts(seed: int) -> None:
    session = started()
    rng = random.Random(seed)
    checked = 0
    for _ in range(40):
        if session.state.phase == "finished":
            break
        if not session.state.pending and session.state.phase == "turns":
            legal = [cmd.model_dump(mode="json") for cmd in
                     Reader(session.state, session.comp).legal_commands()]
            assert all(_accepts(session, c) for c in legal)
            assert _turn_kinds(legal) == _turn_kinds(_brute_force(session))
            checked += 1
        if play_step(session, rng) is None:
            break
    assert checked >= 10


def test_questions_change_nothing() -> None:
    session = started()
    rng = random.Random(3)
    for _ in range(25):
        play_step(session, rng)
    before = session.state.model_dump()
    reader = Reader(session.state, session.comp)
    reader.legal_commands()
    reader.karla_take_preview()
    reader.majority_bonus_notes()
    reader.bag_draw(redraw=True)
    reader.well_options()
    reader.well_price()
    for player in range(len(session.state.players)):
        reader.action_block(player, "harvest")
        reader.church_payment(player)
        reader.mill_payment(player)
    assert session.state.model_dump() == before


def test_an_action_lists_each_printed_payment_the_engine_takes() -> None:
    """Church: one brown cube (a coin standing in for it) or the printed time (000 教堂) —
    each way the player can pay is listed, and the engine then takes exactly that
    payment."""
    session = started()
    st = session.state
    me = st.current
    session.execute({"type": "take_cube", "space": "church", "colour": st.spaces["church"][0]})
    reader = Reader(session.state, session.comp)
    legal = [c for c in reader.legal_commands() if c.type == "church"]
    assert legal, "the church action is open after taking a church cube"
    ways = [c.pay for c in legal if c.member == legal[0].member]
    assert reader.church_payment(me) in ways
    player = session.state.players[me]
    expected = [Payment(cubes={"brown": 1})] if player.cubes.get("brown", 0) else []
    expected += [Payment(coins=1)] if player.coins else []
    assert ways == [*expected, Payment(time=3)]
    entry = legal[-1]
    assert entry.pay is not None
    player = session.state.players[me]
    time_before, brown_before = player.time, player.cubes.get("brown", 0)
    session.execute(entry)
    player = session.state.players[me]
    assert player.time - time_before == entry.pay.time
    assert brown_before - player.cubes.get("brown", 0) == entry.pay.cubes.get("brown", 0)
