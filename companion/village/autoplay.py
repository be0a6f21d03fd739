"""A random player: picks a random command the rules accept. Drives the property tests,
the golden replays and `simulate-karla`. Deliberately dumb, never clever."""

from __future__ import annotations

import random
from typing import Any

from companion.village.rules.context import Ctx
from companion.village.rules.deaths import death_candidates
from companion.village.rules.errors import RuleError
from companion.village.rules.market import available_slots
from companion.village.session import VillageSession

COLOURS = ["brown", "pink", "orange", "green"]
BUILDINGS = ["wainwright", "stable", "scriptorium", "smithy"]


def _own(session: VillageSession, place: str) -> list[str]:
    st = session.state
    return sorted(m.id for m in st.members_of(st.current) if m.place == place)


def candidate_commands(session: VillageSession, rng: random.Random) -> list[dict[str, Any]]:
    """A shuffled list of plausible commands for the current moment (some may be refused)."""
    st = session.state
    ctx = Ctx(st, session.comp)
    if st.pending:
        pend = st.pending[0]
        if pend.kind == "death":
            assert pend.player is not None
            return [{"type": "choose_death", "member": m.id}
                    for m in death_candidates(ctx, pend.player)]
        if pend.kind == "compensation_cube":
            return [{"type": "choose_compensation_cube", "colour": rng.choice(COLOURS)}
                    for _ in range(4)]
        if pend.kind == "karla_cube":
            options = pend.detail.options
            return [{"type": "karla_choose_cube", "space": pend.detail.space, "colour": c}
                    for c in options]
        return []
    if st.phase == "scoring":
        return [{"type": "finish_game"}]
    if st.phase == "mass_buyout":
        assert st.mass is not None
        buyer = st.mass.order[st.mass.index]
        mine = sorted(m.id for m in st.members_at("bag", buyer))
        k = rng.randint(0, min(len(mine), st.players[buyer].coins,
                               4 - len(st.mass.bought)))
        return [{"type": "mass_buyout", "members": rng.sample(mine, k)},
                {"type": "mass_buyout", "members": []}]
    if st.phase == "mass_advance":
        assert st.mass is not None
        who = st.mass.order[st.mass.index]
        church = [m for m in st.members_in("church", who) if m.level < 4]
        moves = {}
        if church and rng.random() < 0.7:
            m = rng.choice(church)
            moves[m.id] = rng.randint(m.level + 1, 4)
        return [{"type": "mass_advance", "moves": moves}, {"type": "mass_advance", "moves": {}}]
    if st.market_day is not None:
        cmds: list[dict[str, Any]] = []
        slots = available_slots(ctx)
        if slots and rng.random() < 0.6:
            slot = rng.choice(slots)
            # A customer is paid in goods and/or grain (rules version 3 checks it); now and
            # then the table confirms another payment ("that's what we paid").
            demand = _customer_payment(st.players[st.market_day.seller], rng)
            for extra in ({}, {"extra_with_coin": True}):
                cmds.append({"type": "market_serve", "slot": slot,
                             "points": rng.randint(2, 8), "pay": demand, **extra})
        cmds.append({"type": "market_pass"})
        return cmds
    if st.phase != "turns":
        return []
    if st.stage == "take":
        cmds = []
        for space, cubes in st.spaces.items():
            for colour in sorted(set(cubes)):
                cmds.append({"type": "take_cube", "space": space, "colour": colour})
        rng.shuffle(cmds)
        p = st.players[st.current]
        for c in COLOURS:
            if p.cubes.get(c, 0) >= 3 and rng.random() < 0.3:
                cmds.insert(0, {"type": "well", "colour": c})
        cmds.append({"type": "free_action"})
        return cmds
    # stage "act": one action or end the turn
    taken: str | None = st.space_taken
    acts: list[dict[str, Any]] = []
    farm = _own(session, "farmyard")
    if rng.random() < 0.25 or st.action_done:
        return [{"type": "end_turn"}]
    if taken in ("harvest", "well", "free"):
        acts.append({"type": "harvest"})
    if taken in ("family", "well", "free"):
        acts.append({"type": "family_birth"})
        board = [m for p in ("workshop", "council", "church", "travel") for m in _own(session, p)]
        if board:
            acts.append({"type": "family_recall", "member": rng.choice(board)})
    if taken in ("crafts", "well", "free"):
        b = rng.choice(BUILDINGS)
        goods = rng.choice(["horse", "ox"]) if b == "stable" else None
        if farm:
            acts.append({"type": "crafts_train", "building": b, "train_member": rng.choice(farm),
                         "goods": goods})
        acts.append({"type": "crafts_train", "building": b, "goods": goods})
        acts.append({"type": "crafts_buy", "building": b, "goods": goods})
        acts.append({"type": "mill"})
    if taken in ("council", "well", "free"):
        level = rng.randint(1, 4)
        priv: dict[str, Any] = {"level": level}
        if level == 2:
            priv["cubes"] = rng.sample(COLOURS, 2)
        if level == 3:
            priv["goods"] = rng.choice(["scroll", "horse", "plough", "ox", "wagon"])
        if farm:
            acts.append({"type": "council_enter", "member": rng.choice(farm),
                         "privilege": {"level": 1}})
        council = _own(session, "council")
        if council:
            acts.append({"type": "council_advance", "member": rng.choice(council),
                         "privilege": priv})
            acts.append({"type": "council_privilege", "privilege": priv})
    if taken in ("travel", "well", "free"):
        movers = farm + _own(session, "travel")
        if movers:
            acts.append({"type": "travel", "member": rng.choice(movers),
                         "city": rng.randint(1, 6), "route_cubes": {rng.choice(COLOURS): 1},
                         "reward": rng.choice(["prestige", "coin", "cubes"]),
                         "reward_cubes": rng.sample(COLOURS, 2)})
    if taken in ("church", "well", "free") and farm:
        acts.append({"type": "church", "member": rng.choice(farm)})
        acts.append({"type": "church", "member": rng.choice(farm), "pay": {"time": 3}})
    if taken in ("market", "well", "free"):
        acts.append({"type": "hold_market"})
    if rng.random() < 0.15:
        acts.append({"type": "spend_time", "player": st.current, "amount": rng.randint(1, 4)})
    if st.solo and st.next_start_holder is not None and rng.random() < 0.5:
        acts.append({"type": "next_start_marker_coin"})
    rng.shuffle(acts)
    return acts + [{"type": "end_turn"}]


def _customer_payment(player: Any, rng: random.Random) -> dict[str, Any]:
    """What a random customer demands of what the seller holds: a goods tile or grain."""
    held = [g for g, n in player.goods.items() if n > 0]
    if rng.random() < 0.1:
        return {"override": True}
    if held and (player.grain == 0 or rng.random() < 0.5):
        return {"goods": {rng.choice(held): 1}}
    return {"grain": rng.randint(1, 2)}


def play_step(session: VillageSession, rng: random.Random) -> dict[str, Any] | None:
    """Apply one random accepted command; returns it, or None when the game is over."""
    if session.state.phase == "finished":
        return None
    if session.state.pending and session.state.pending[0].kind == "chance":
        raise RuntimeError("a draw waits for manual entry; the random player uses app draws")
    for cmd in candidate_commands(session, rng):
        try:
            session.execute(cmd)
        except RuleError:
            continue
        return cmd
    raise RuntimeError(f"no accepted command in phase {session.state.phase}, "
                       f"stage {session.state.stage}, pending {session.state.pending}")


def play_game(session: VillageSession, rng: random.Random, max_steps: int = 5000) -> int:
    steps = 0
    while steps < max_steps and play_step(session, rng) is not None:
        steps += 1
    return steps
