"""Chance events: every random outcome is an event, drawn by the app or typed in by players
who drew physically. Replays apply the recorded outcome; nothing is ever re-rolled."""

from __future__ import annotations

import random
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from companion.core import chance as core_chance
from companion.village.outcomes import (
    CHANCE,
    OUTCOME_SHAPES,
    BagChance,
    BagOutcome,
    ChanceBase,
    ChanceEvent,
    ColourOutcome,
    CompensationChance,
    D4Chance,
    Draw,
    FateChance,
    FateOutcome,
    MassChance,
    MassOutcome,
    Outcome,
    StartPlayerChance,
    StartPlayerOutcome,
    _Outcome,
)
from companion.village.rules import bag, karla, mass
from companion.village.rules.context import Ctx
from companion.village.rules.errors import RuleError, from_validation, require
from companion.village.state import Pending

__all__ = ["CHANCE", "OUTCOME_SHAPES", "BagChance", "BagOutcome", "ChanceBase", "ChanceEvent",
           "ColourOutcome", "CompensationChance", "D4Chance", "Draw", "FateChance",
           "FateOutcome", "MassChance", "MassOutcome", "Outcome", "Redraw", "StartPlayerChance",
           "StartPlayerOutcome", "app_outcome", "apply_chance", "chance_event", "check_outcome",
           "rng_for"]

REDRAWABLE = ("bag", "mass")


def chance_event(draw: str, outcome: Outcome, source: Literal["app", "manual"], *,
                 redraw: bool = False) -> ChanceEvent:
    """The event of `draw` with its checked `outcome` (a model of the draw's shape)."""
    return CHANCE.validate_python({"type": "chance", "draw": draw, "outcome": outcome,
                                   "source": source, "redraw": redraw})


class Redraw(BaseModel):
    """Replace the last bag or mass draw: by the app (no outcome) or as drawn physically."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    type: Literal["redraw"] = "redraw"
    draw: Literal["bag", "mass"]
    outcome: BagOutcome | MassOutcome | None = Field(default=None)


OUTCOME_EXAMPLES = {
    "start_player": '{"player": 0}', "compensation_cube": '{"colour": "brown"}',
    "bag": '{"placements": {"harvest": ["brown", "pink"]}}',
    "mass": '{"items": ["monk"]}', "fate": '{"side": "top", "tile": 0, "quill": false}',
    "d4": '{"colour": "brown"}',
}


def check_outcome(draw: object, outcome: object) -> Outcome:
    """An outcome typed in for `draw` (its model, or a dict from outside), checked for its
    shape (not yet against the game): anything malformed is a RuleError naming the field,
    "outcome" or "outcome.<path>"."""
    if not isinstance(draw, str) or draw not in OUTCOME_SHAPES:
        raise RuleError("draw", f"unknown draw {draw!r}",
                        key="rule.unknown_draw", params={"draw": draw})
    example = OUTCOME_EXAMPLES[draw]
    shape = OUTCOME_SHAPES[draw]
    if isinstance(outcome, shape):
        return outcome  # type: ignore[return-value]  # one of Outcome's members
    if isinstance(outcome, _Outcome):  # another draw's shape: checked as its fields
        outcome = outcome.model_dump()
    if not isinstance(outcome, dict):
        raise RuleError("outcome", f"must be an object, e.g. {example}",
                        key="rule.outcome_not_object", params={"example": example})
    try:
        checked = shape.model_validate(outcome)
    except ValidationError as exc:
        raise from_validation(exc, prefix="outcome") from exc
    return checked  # type: ignore[return-value]  # one of Outcome's members


def rng_for(seed: int, seq: int, draw: str) -> random.Random:
    """Seeded by the game seed and the log position, so the same log draws the same."""
    return core_chance.rng_for("village", seed, seq, draw)  # "village:<seed>:<seq>:<draw>"


def app_outcome(ctx: Ctx, pending: Pending, rng: random.Random) -> Outcome:
    st = ctx.state
    draw = pending.draw
    if draw == "start_player":
        return StartPlayerOutcome(player=rng.randrange(len(st.players)))
    if draw == "compensation_cube":
        colours = [c for c in ctx.comp.names("influence_colours") if st.supply.get(c, 0) > 0]
        return ColourOutcome(colour=rng.choice(colours))
    if draw == "bag":
        return BagOutcome(placements=bag.draw_placements(ctx, rng))
    if draw == "mass":
        return MassOutcome(items=mass.draw_items(ctx, rng, int(pending.detail.count or 0)))
    if draw == "fate":
        return karla.app_fate_outcome(ctx, pending, rng)
    if draw == "d4":
        return karla.app_d4_outcome(ctx, rng)
    raise RuleError("draw", f"unknown draw {draw}", key="rule.unknown_draw", params={"draw": draw})


def apply_chance(ctx: Ctx, ev: ChanceEvent) -> None:
    st = ctx.state
    redraw_count = 0
    if ev.redraw:
        if ev.draw == "mass" and st.mass is not None:
            # Read before reverting: the redraw replaces exactly the random items drawn.
            redraw_count = ctx.comp.n("mass_draw") - len(st.mass.bought)
        _revert_for_redraw(ctx, ev.draw)
    else:
        require(bool(st.pending) and st.pending[0].kind == "chance", "draw",
                "no draw is waiting", key="rule.no_draw_waiting")
        require(st.pending[0].draw == ev.draw, "draw",
                f"the game waits for the {st.pending[0].draw} draw, not {ev.draw}",
                key="rule.wrong_draw", params={"draw": st.pending[0].draw, "asked_draw": ev.draw})
    pending = st.pending[0] if st.pending and not ev.redraw else None
    if isinstance(ev, StartPlayerChance):
        player = ev.outcome.player
        require(0 <= player < len(st.players), "outcome.player", "not a player",
                key="rule.not_a_player")
        st.pending.pop(0)
        st.start_player = player
        st.current = player
        ctx.note("start_player", player=st.players[player].name)
    elif isinstance(ev, CompensationChance):
        colour = ev.outcome.colour
        require(colour in ctx.comp.names("influence_colours"),
                "outcome.colour", "not an influence colour", key="rule.not_influence_colour")
        require(st.supply.get(colour, 0) > 0, "outcome.colour", f"no {colour} in the supply",
                key="rule.colour_not_in_supply", params={"colour": colour})
        assert pending is not None and pending.player is not None
        st.pending.pop(0)
        st.supply[colour] -= 1
        p = st.players[pending.player]
        p.cubes[colour] = p.cubes.get(colour, 0) + 1
        ctx.note("compensation_drawn", player=p.name, colour=colour)
    elif isinstance(ev, BagChance):
        placements = ev.outcome.placements
        bag.check_placements(ctx, placements)
        if not ev.redraw:
            st.pending.pop(0)
        bag.place(ctx, placements)
    elif isinstance(ev, MassChance):
        items = ev.outcome.items
        assert st.mass is not None
        count = int(pending.detail.count or 0) if pending else redraw_count
        mass.check_draw(ctx, items, count)
        if not ev.redraw:
            st.pending.pop(0)
        mass.apply_draw(ctx, items)
    else:
        assert pending is not None
        karla.apply_chance(ctx, pending, ev)


def _revert_for_redraw(ctx: Ctx, draw: str) -> None:
    st = ctx.state
    if draw == "bag":
        require(st.phase == "turns" and st.round_turns == 0 and st.stage == "take"
                and not st.pending, "draw", "the bag can be redrawn only before the round's "
                "first cube is taken", key="rule.bag_redraw_too_late")
        bag.unplace_round(ctx)
    elif draw == "mass":
        require(st.phase == "mass_advance" and st.mass is not None and st.mass.drawn_random
                and not st.mass_advanced, "draw",
                "the mass draw can be redrawn only before anyone advances",
                key="rule.mass_redraw_too_late")
        assert st.mass is not None
        mass.undo_draw(ctx)
    else:
        raise RuleError("draw", f"the {draw} draw cannot be redrawn",
                        key="rule.cannot_redraw", params={"draw": draw})
