"""Commands are typed from the screen to the engine (issue 21, point 5).

A screen builds a command model; the engine's handlers take the model of their own command;
a dict (a stored log, a redo stack, a share client, a test) is checked into its model once,
at the boundary, and a malformed one is refused with an error naming the field. The stored
form of every event is the same as before: a model and the dict it was built from record
the same bytes."""

from __future__ import annotations

import json
from typing import get_args

import pytest

from companion.village import chance, engine
from companion.village.commands import (
    Command,
    CraftsTrain,
    EndTurn,
    Mill,
    Payment,
    TakeCube,
    as_paid,
)
from companion.village.read import Reader
from companion.village.rules.context import Ctx
from companion.village.rules.errors import RuleError
from companion.village.session import VillageSession, parse_body, validate_command
from companion.village.setup import PlayerSetup, VillageSetup

CLOCK = "2026-01-01T00:00:00+00:00"


def _session() -> VillageSession:
    return VillageSession.new(VillageSetup(
        players=[PlayerSetup(name="A", colour="red"), PlayerSetup(name="B", colour="blue")],
        seed=3), clock=lambda: CLOCK)


def _first_take(session: VillageSession) -> tuple[str, str]:
    return min(Reader(session.state, session.comp).turn_options().takes)


# ---- the boundary: a dict is checked once, a malformed one names its field ---------------------
@pytest.mark.parametrize(("raw", "field"), [
    ({"type": "take_cube", "space": "nowhere", "colour": "green"}, "space"),
    ({"type": "take_cube", "space": "market"}, "colour"),
    ({"type": "spend_time", "player": 0, "amount": "lots"}, "amount"),
    ({"type": "spend_time", "player": 0, "amount": 2, "extra": 1}, "extra"),
    ({"type": "market_serve", "slot": 0, "points": 2, "pay": {"time": -1}}, "pay.time"),
    ({"type": "fly_away"}, "type"),
    ({"space": "market"}, "type"),
])
def test_a_malformed_dict_from_outside_is_refused_naming_the_field(
        raw: dict[str, object], field: str) -> None:
    session = _session()
    before = json.dumps(session.events)
    with pytest.raises(RuleError) as info:
        session.execute(raw)
    assert info.value.field == field
    assert field.split(".")[-1] in str(info.value) or field == "type"
    assert json.dumps(session.events) == before  # nothing recorded


@pytest.mark.parametrize(("body", "field"), [
    ({"type": "take_cube", "space": "market", "colour": 7}, "colour"),
    ({"type": "chance", "draw": "start_player", "outcome": {"player": True},
      "source": "app"}, "outcome.player"),
    ({"type": "chance", "draw": "bag", "outcome": {"placements": ["brown"]},
      "source": "app"}, "outcome.placements"),
])
def test_a_malformed_stored_event_is_refused_naming_the_field(
        body: dict[str, object], field: str) -> None:
    with pytest.raises(RuleError) as info:
        parse_body(body)
    assert info.value.field == field
    session = _session()
    stored = [*session.events, {"seq": len(session.events), "group": 1, "at": CLOCK,
                                "body": body}]
    with pytest.raises(RuleError) as opened:  # the service quarantines it (DamagedGame)
        VillageSession(session.setup, session.comp, stored)
    assert opened.value.field == field


def test_a_malformed_redo_stack_names_the_redo_field() -> None:
    session = _session()
    session.redo_stack = [{"seq": 9, "group": session.group + 1, "at": CLOCK,
                           "body": {"type": "take_cube", "space": "market", "colour": 7}}]
    with pytest.raises(RuleError) as info:
        session.redo()
    assert info.value.field == "redo.colour"


def test_a_model_passes_the_boundary_as_it_is_and_a_legacy_one_is_refused() -> None:
    model = EndTurn()
    assert validate_command(model) is model  # checked when built, not again
    with pytest.raises(RuleError) as info:
        validate_command({"type": "spend_next_start_marker"})
    assert info.value.field == "type"
    from companion.village.commands import SpendNextStartMarker

    with pytest.raises(RuleError):
        validate_command(SpendNextStartMarker())


# ---- the stored form is unchanged -------------------------------------------------------------
def test_a_model_and_its_dict_record_the_same_bytes() -> None:
    by_model, by_dict = _session(), _session()
    space, colour = _first_take(by_model)
    by_model.execute(TakeCube(space=space, colour=colour))
    by_dict.execute({"type": "take_cube", "space": space, "colour": colour})
    assert json.dumps(by_model.events) == json.dumps(by_dict.events)
    assert by_model.events[-1]["body"] == {"type": "take_cube", "space": space,
                                           "colour": colour}


def test_chance_events_keep_their_stored_shape() -> None:
    session = _session()
    chances = [e["body"] for e in session.events if e["body"]["type"] == "chance"]
    assert chances, "the setup draws"
    for body in chances:
        assert list(body) == ["type", "draw", "outcome", "source", "redraw"]
        model = parse_body(body)
        assert isinstance(model, chance.ChanceBase)
        assert model.model_dump(mode="json") == body
    bag = next(b for b in chances if b["draw"] == "bag")
    model = parse_body(bag)
    assert isinstance(model, chance.BagChance)
    assert isinstance(model.outcome, chance.BagOutcome)
    assert model.outcome.placements == bag["outcome"]["placements"]


def test_an_outcome_model_or_dict_enters_the_same_draw() -> None:
    manual_model = VillageSession.new(_session().setup, draw_mode="manual",
                                      clock=lambda: CLOCK)
    manual_dict = VillageSession.new(_session().setup, draw_mode="manual",
                                     clock=lambda: CLOCK)
    assert manual_model.state.pending[0].draw == "start_player"
    manual_model.enter_draw(chance.StartPlayerOutcome(player=1))
    manual_dict.enter_draw({"player": 1})
    assert json.dumps(manual_model.events) == json.dumps(manual_dict.events)
    with pytest.raises(RuleError) as info:  # another draw's shape is checked as its fields
        manual_model.enter_draw(chance.MassOutcome(items=["monk"]))
    assert info.value.field.startswith("outcome")


# ---- the handlers ------------------------------------------------------------------------------
def test_every_command_model_has_its_handler_and_a_handler_takes_only_its_model() -> None:
    models = get_args(get_args(Command)[0])
    tags = {m.model_fields["type"].default for m in models}
    assert tags == set(engine.HANDLERS)
    session = _session()
    with pytest.raises(TypeError, match="take_cube handler got a EndTurn"):
        engine.HANDLERS["take_cube"](Ctx(session.state.clone(), session.comp), EndTurn())


def test_as_paid_confirms_the_payment_and_leaves_other_commands_alone() -> None:
    mill = as_paid(Mill())
    assert isinstance(mill, Mill) and mill.pay == Payment(override=True)
    train = as_paid(CraftsTrain(building="smithy", pay=Payment(time=2)))
    assert isinstance(train, CraftsTrain) and train.pay == Payment(time=2, override=True)
    assert as_paid(EndTurn()) == EndTurn()


# ---- typed component reads ----------------------------------------------------------------------
def test_component_reads_return_their_type_and_refuse_another_shape() -> None:
    from companion.village.components import ComponentProblem, correction_value, load_components

    comp = load_components("big-box")
    assert comp.names("influence_colours") == ["brown", "pink", "orange", "green"]
    assert all(type(n) is int for n in comp.numbers("score_church"))
    assert comp.counts("mill")["coins"] == comp.values["mill"].value["coins"]
    assert comp.flag("council_privilege_cubes_distinct") in (True, False)
    assert isinstance(comp.text("final_turn_death"), str)
    assert set(comp.name_lists("workshop_goods")) == {"wainwright", "stable", "scriptorium",
                                                      "smithy"}
    with pytest.raises(TypeError, match="not a list of names"):
        comp.names("score_church")
    with pytest.raises(TypeError, match="not counts by name"):
        comp.counts("influence_colours")
    with pytest.raises(TypeError, match="not true or false"):
        comp.flag("grain_max")
    # A correction keeps the shape the typed reads rely on, else it is refused by name.
    with pytest.raises(ComponentProblem, match="^plague_time: must have the shape"):
        correction_value(comp, "plague_time", "2")
    with pytest.raises(ComponentProblem, match="^influence_colours: must have the shape"):
        correction_value(comp, "influence_colours", ["brown", "pink", "orange", 2])
    assert correction_value(comp, "plague_time", 3) == 3
