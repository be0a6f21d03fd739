"""Every logged event in plain words, built from its body (command type and fields) with
the app's strings and the game-term catalogue."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.app.village.forms.payment import PaymentDraft, payment_summary
from companion.app.village.log.model import LogEntry
from companion.app.village.present import term
from companion.app.village.table.words import (
    cubes_text,
    loc_text,
    member_text,
    player_name,
    space_name,
)
from companion.core.json_types import JsonObject
from companion.village.commands import Payment
from companion.village.state import VillageState

if TYPE_CHECKING:
    from companion.app.context import AppContext

# Command type -> message; each message may use {player} and the command's own fields.
SIMPLE = {
    "free_action": "village.log.free_action",
    "end_turn": "village.log.end_turn",
    "harvest": "village.log.harvest",
    "family_birth": "village.log.family_birth",
    "family_recall": "village.log.family_recall",
    "crafts_buy": "village.log.crafts_buy",
    "mill": "village.log.mill",
    "hold_market": "village.log.hold_market",
    "market_serve": "village.log.market_serve",
    "market_pass": "village.log.market_pass",
    "council_enter": "village.log.council_enter",
    "council_advance": "village.log.council_advance",
    "travel": "village.log.travel",
    "church": "village.log.church",
    "spend_time": "village.log.spend_time",
    "choose_death": "village.log.choose_death",
    "spend_next_start_marker": "village.log.spend_next_start_marker",
    "next_start_marker_coin": "village.log.next_start_marker_coin",
    "finish_game": "village.log.finish_game",
    "set_time": "village.log.set_time",
    "take_back_time": "village.log.take_back_time",
    "add_customer_tile": "village.log.add_customer_tile",
    "remove_customer_tile": "village.log.remove_customer_tile",
    "set_customer_points": "village.log.set_customer_points",
    "move_member": "village.log.move_member",
}
ADJUST_FIELDS = {
    "prestige": "village.log.field.prestige", "coins": "village.log.field.coins",
    "grain": "village.log.field.grain", "cubes": "village.log.field.cubes",
    "goods": "village.log.field.goods", "cities": "village.log.field.cities",
}
# Command type -> the field that counts what its message names (a plural message, read
# with tn, words "1 point" where the language tells one from many).
COUNTED = {"add_customer_tile": "points", "set_customer_points": "points",
           "spend_time": "amount", "take_back_time": "amount"}
SOURCES = {"app": "village.log.source.app", "manual": "village.log.source.manual"}


# Sentences where the player acts on a member ("{player} trained {member} …"): their own
# member is "a number-1 member", not "Chen trained Chen's number-1 member".
OWN_MEMBER_KINDS = frozenset({"crafts_train", "council_enter", "council_advance", "church",
                              "family_recall", "travel"})


def _member(ctx: AppContext, state: VillageState, member_id: str, actor: int | None,
            kind: str) -> str:
    member = state.members.get(member_id)
    if member is not None and kind in OWN_MEMBER_KINDS and member.owner == actor:
        return ctx.t("village.member_own", gen=member.gen)
    return member_text(ctx, state, member_id)


def _params(ctx: AppContext, state: VillageState, entry: LogEntry) -> JsonObject:
    body = entry.body
    params: JsonObject = {"player": player_name(ctx, state, entry.actor)}
    for key, value in body.items():
        if key in ("type", "pay", "privilege"):
            continue
        if key == "player" and isinstance(value, int):  # a command naming its player
            params[key] = player_name(ctx, state, value)
        elif key == "member" and isinstance(value, str):
            params[key] = _member(ctx, state, value, entry.actor, str(body.get("type")))
        elif key in ("colour",) and isinstance(value, str):
            params[key] = term(ctx, "colour", value)
        elif key == "space" and isinstance(value, str):
            params[key] = space_name(ctx, value)
        elif key == "building" and isinstance(value, str):
            params[key] = term(ctx, "building", value)
        elif key in ("slot", "index") and isinstance(value, int):
            params[key] = value + 1  # front spaces and served tiles count from 1 at the table
        elif key == "to" and isinstance(value, str):
            params[key] = loc_text(ctx, value)
        else:
            params[key] = value
    return params


def describe(ctx: AppContext, state: VillageState, entry: LogEntry) -> str:
    """One sentence for one event. `state` (any later state) names players and members.
    A payment the table confirmed although it differs from the printed cost says so."""
    text = _sentence(ctx, state, entry)
    pay = entry.body.get("pay")
    if isinstance(pay, dict) and pay.get("override"):
        paid = payment_summary(ctx, PaymentDraft.of(Payment.model_validate(pay)))
        return ctx.t("village.log.paid_as_entered", sentence=text, paid=paid)
    return text


def _sentence(ctx: AppContext, state: VillageState, entry: LogEntry) -> str:
    body, t = entry.body, ctx.t
    kind = str(body.get("type", ""))
    if kind == "chance":
        return _chance(ctx, state, entry)
    params = _params(ctx, state, entry)
    if kind == "take_cube":
        return t("village.log.take_cube", **params)
    if kind == "well":
        if body.get("coins"):
            return t("village.log.well_coins", **params)
        return t("village.log.well", **params)
    if kind == "crafts_train":
        if body.get("train_member"):
            return t("village.log.crafts_train", **{
                **params, "member": _member(ctx, state, str(body["train_member"]),
                                            entry.actor, kind)})
        return t("village.log.crafts_produce", **params)
    if kind == "council_privilege":
        privilege = body.get("privilege") or {}
        return t("village.log.council_privilege", **params, level=privilege.get("level", "?"))
    if kind == "choose_compensation_cube":
        return t("village.log.compensation", **params)
    if kind == "mass_buyout":
        return t("village.log.mass_buyout", **params, count=len(body.get("members", [])))
    if kind == "mass_advance":
        return t("village.log.mass_advance", **params, count=len(body.get("moves", {})))
    if kind == "karla_choose_cube":
        return t("village.log.karla_choose_cube", **params)
    if kind == "adjust":
        field_key = ADJUST_FIELDS.get(str(body.get("field")))
        what = t(field_key) if field_key else str(body.get("field"))
        if body.get("key"):
            what += f" ({term(ctx, 'colour', str(body['key']))})"
        delta = int(body.get("delta", 0))
        return t("village.log.adjust", **{**params, "field": what,
                                          "delta": f"{delta:+d}"})
    if kind == "override_score":
        category = term(ctx, "category", str(body.get("category", "")))
        if body.get("value") is None:
            return t("village.log.override_removed", **{**params, "category": category})
        said = ("village.log.override_kept" if body.get("beyond_max")  # asked, then kept
                else "village.log.override_score")
        return t(said, **{**params, "category": category})
    key = SIMPLE.get(kind)
    if key is None:
        return t("village.log.unknown", type=kind)
    counted = body.get(COUNTED.get(kind, ""))
    if isinstance(counted, int):
        return ctx.tn(key, counted, **params)
    return t(key, **params)


def _chance(ctx: AppContext, state: VillageState, entry: LogEntry) -> str:
    body, t = entry.body, ctx.t
    draw = body.get("draw")
    out: JsonObject = dict(body.get("outcome") or {})
    if draw == "start_player":
        index = out.get("player")
        return t("village.log.draw.start_player",
                 player=player_name(ctx, state, index if isinstance(index, int) else None))
    if draw == "compensation_cube":
        return t("village.log.draw.compensation", player=player_name(ctx, state, entry.actor),
                 colour=term(ctx, "colour", str(out.get("colour"))))
    if draw == "bag":
        placements: dict[str, list[str]] = out.get("placements") or {}
        parts = [f"{space_name(ctx, s)}: {cubes_text(ctx, cubes)}"
                 for s, cubes in placements.items() if cubes]
        return t("village.log.draw.bag", cubes="; ".join(parts))
    if draw == "mass":
        items = [t("village.log.monk") if i == "monk" else member_text(ctx, state, str(i))
                 for i in out.get("items", [])]
        return t("village.log.draw.mass", items=t("village.list_sep").join(items) or "—")
    if draw == "fate":
        side = term(ctx, "side", str(out.get("side")))
        tile = int(out.get("tile", 0)) + 1
        if out.get("quill"):
            return t("village.log.draw.fate_quill", side=side, tile=tile)
        return t("village.log.draw.fate_blank", side=side, tile=tile)
    if draw == "d4":
        return t("village.log.draw.d4", colour=term(ctx, "colour", str(out.get("colour"))))
    return t("village.log.unknown", type=str(draw))


def drawn_by_the_app(entry: LogEntry) -> bool:
    """A draw the app made on its own (not typed in, not a redraw someone asked for): no
    phone is named for it, even when a phone's End turn brought it."""
    return (entry.body.get("type") == "chance" and entry.body.get("source") == "app"
            and not entry.body.get("redraw"))


def source_text(ctx: AppContext, entry: LogEntry) -> str | None:
    """For draws: who drew (the app, or the players who typed it in); redraws say so."""
    if entry.body.get("type") != "chance":
        return None
    key = SOURCES.get(str(entry.body.get("source")))
    text = ctx.t(key) if key else str(entry.body.get("source"))
    if entry.body.get("redraw"):
        text = ctx.t("village.log.redraw", source=text)
    return text
