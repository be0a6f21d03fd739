"""Words for what the engine says: notes (key + params) and errors, in the app's language."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from companion.app.summaries import KARLA_NAME
from companion.core.errors import Refused
from companion.core.json_types import JsonObject
from companion.village.notes import cube_list, render_en

if TYPE_CHECKING:
    from companion.app.context import AppContext

# Parameters that hold game terms, translated on their own ("colour.green" ...).
TERM_PARAMS = {"colour": "colour", "space": "space", "from_space": "space",
               "section": "section", "goods": "goods", "side": "side", "phase": "phase",
               "draw": "draw"}
# Parameters that hold a player's name: Karla's is worded in the reader's spelling.
NAME_PARAMS = frozenset({"player", "name", "owner"})
# More of them in refusals (error.<key>): a list value is worded item by item.
ERROR_TERM_PARAMS = {**TERM_PARAMS, "asked_draw": "draw", "action": "space",
                     "building": "building", "goods_options": "goods",
                     "colour_options": "colour"}


def term(ctx: AppContext, namespace: str, value: str) -> str:
    key = f"{namespace}.{value}"
    return ctx.t(key) if ctx.translator.has(key) else value


def note_text(ctx: AppContext, key: str, params: JsonObject) -> str:
    msgid = f"note.{key}"
    if not ctx.translator.has(msgid):
        return render_en(key, params)  # a note without a catalogue entry stays English
    shown = {k: term(ctx, TERM_PARAMS[k], str(v)) if k in TERM_PARAMS else v
             for k, v in params.items()}
    shown.update(_karla(ctx, params))
    for k, v in params.items():
        if isinstance(v, dict):  # colour -> count, e.g. the cubes put on a space
            shown[k] = cube_list(v, lambda c: term(ctx, "colour", str(c)))
    return ctx.t(msgid, **shown)


def note_texts(ctx: AppContext, note_data: list[JsonObject]) -> list[str]:
    return [note_text(ctx, str(n["key"]), dict(n.get("params", {}))) for n in note_data]


def payment_words(ctx: AppContext, *, time: int = 0, cubes: Mapping[str, int] | None = None,
                  coins: int = 0, grain: int = 0, goods: Mapping[str, int] | None = None
                  ) -> str:
    """A payment or printed cost in words: "2 time · 1× Green · 1 coin"."""
    t = ctx.t
    parts = [t("panel.pay.n_time", count=time)] if time else []
    parts += [f"{n}× {term(ctx, 'colour', c)}" for c, n in (cubes or {}).items() if n]
    parts += [t("panel.pay.n_coins", count=coins)] if coins else []
    parts += [t("panel.pay.n_grain", count=grain)] if grain else []
    parts += [f"{n}× {term(ctx, 'goods', g)}" for g, n in (goods or {}).items() if n]
    return " · ".join(parts) if parts else t("panel.pay.nothing")


def error_params(ctx: AppContext, params: JsonObject) -> JsonObject:
    """A refusal's params as shown: game terms in the player's language, lists joined;
    printed costs (`costs`: the engine's alternatives) in words."""
    shown: JsonObject = {}
    for k, v in params.items():
        if k == "costs" and isinstance(v, list):
            shown[k] = f" {ctx.t('panel.pay.or')} ".join(
                payment_words(ctx, time=c.get("time", 0), cubes=c.get("cubes"),
                              grain=c.get("grain", 0), goods=c.get("goods")) for c in v)
            continue
        namespace = ERROR_TERM_PARAMS.get(k)
        if isinstance(v, list | tuple):
            shown[k] = ", ".join(term(ctx, namespace, str(x)) if namespace else str(x)
                                 for x in v)
        else:
            shown[k] = term(ctx, namespace, str(v)) if namespace else v
    shown.update(_karla(ctx, params))
    return shown


def _karla(ctx: AppContext, params: JsonObject) -> dict[str, str]:
    """Name parameters naming Karla, in the reader's spelling (카를라, 卡拉 …)."""
    return {k: ctx.t("village.karla") for k, v in params.items()
            if k in NAME_PARAMS and v == KARLA_NAME}


# A refusal without a key (a shape error of a command) names its field in words: the
# field path's first part -> the words the form shows for it.
FIELD_WORDS = {"pay": "village.field.pay", "points": "panel.market.points",
               "value": "panel.score.points"}


# Keyed refusals worded as a predicate of their field ("must not be negative"): shown
# after the field in words.
SUBJECTLESS = frozenset({
    "rule.not_negative", "rule.setup_colour",
    "rule.list_cube_colours", "rule.wrong_cube_count", "rule.delta_zero",
    "rule.need_influence_colour", "rule.need_goods_type", "rule.need_city_number",
    "rule.member_or_monk", "rule.move_right",
    "rule.outcome_not_object", "rule.command_type_required", "rule.command_type_text"})


def field_words(ctx: AppContext, field: str) -> str:
    """A refusal's field in the player's words, never its path ("pay.coins" -> "Payment",
    "outcome.council" -> "Council")."""
    parts = field.replace("[", ".").split(".")
    if parts[0] == "outcome" and len(parts) > 1 and ctx.translator.has(f"space.{parts[1]}"):
        return term(ctx, "space", parts[1])
    return ctx.t(FIELD_WORDS.get(parts[0], "village.refused_entry"))


# Refusals that tell the player what to do next, worded apart for a phone acting for a
# seat not its own ("error.<key>.another_seat", the same params).
ANOTHER_SEAT_WORDS = frozenset({"rule.cube_already_taken"})


def error_text(ctx: AppContext, exc: Refused, *, another_seat: bool = False) -> str:
    """What is wrong, in the player's words: worded from the catalogues by the error's
    key ("error.<key>", which names the thing: "Chen has 0 coins, needs 2"); an error
    without a key (or the key without text) keeps the engine's English message after
    its field in words. Never the internal field path ("pay.coins").

    `another_seat`: a phone acted for a seat not its own; a refusal that tells the
    player what to do next has words for an onlooker ("error.<key>.another_seat": "Ann
    ends the turn next", not "end the turn first")."""
    msgid = f"error.{exc.key}" if exc.key else ""
    if another_seat and exc.key in ANOTHER_SEAT_WORDS:
        msgid = f"{msgid}.another_seat"
    if msgid and ctx.translator.has(msgid):
        message = ctx.t(msgid, **error_params(ctx, exc.params))
        if exc.key not in SUBJECTLESS:  # a sentence of its own: it starts as one
            return message[:1].upper() + message[1:]
    else:
        message = exc.message
    return ctx.t("village.error", field=field_words(ctx, exc.field), message=message)
