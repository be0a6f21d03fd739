"""The final sheet every assistant ends with: ranks, winners, the tie-break in words,
share as text, and "finish" (which saves the game to history).

The sheet itself is the game's scorer (the same code as `village-companion score`); this
module only puts it into words in the app's language.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import flet as ft

from companion.app.assistants.play import TallyScreen
from companion.app.history.bgstats_button import bgstats_button
from companion.app.kit import (
    BODY_TEXT_SIZE,
    PRIMARY_BUTTON_HEIGHT,
    SMALL_TEXT,
    banner,
    big_button,
    card,
    heading,
)
from companion.scoring.contract import PlayerResult, ScoreSheet
from companion.scoring.tiebreak import TieGroup, TieKey, tie_groups
from companion.tally.api import EditRejected

Translate = Callable[..., str]

CATEGORY_LABELS: dict[str, str] = {
    "votes": "games.cat.votes",
    "promises": "games.cat.promises",
    "pollution": "games.cat.pollution",
    "vp": "games.cat.vp",
    "journey": "games.cat.journey",
    "empire": "games.cat.empire",
    "shillings": "games.cat.shillings",
    "decrees": "games.cat.decrees",
    "money": "games.cat.money",
}
# Categories that can be negative read with a sign ("Promises −6"), the rest as counts.
SIGNED_CATEGORIES = frozenset({"promises", "pollution"})
TIE_LABELS: dict[str, str] = {
    "pollution": "games.tie.pollution",
    "money": "games.tie.money",
    "sulfur": "games.tie.sulfur",
    "villagers": "games.tie.villagers",
}


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else ("−" + str(-value) if value < 0 else "0")


def breakdown(t: Translate, player: PlayerResult) -> str:
    parts = []
    for category, value in player.categories.items():
        key = CATEGORY_LABELS.get(category)
        label = t(key) if key else category
        parts.append(f"{label} {signed(value) if category in SIGNED_CATEGORIES else value}")
    return " · ".join(parts)


def ranked(sheet: ScoreSheet) -> list[PlayerResult]:
    """Rank order; players out of the ranking last, in seat order."""
    order = sorted(range(len(sheet.players)),
                   key=lambda i: (sheet.players[i].rank is None, sheet.players[i].rank or 0, i))
    return [sheet.players[i] for i in order]


def winners_line(t: Translate, sheet: ScoreSheet) -> str:
    if not sheet.winners:
        return t("games.final.no_winner")
    names = ", ".join(sheet.winners)
    if len(sheet.winners) == 1:
        return t("games.final.winner", name=names)
    return t("games.final.winners", names=names)


def tie_sentences(t: Translate, sheet: ScoreSheet, keys: Sequence[TieKey]) -> list[str]:
    names = [p.name for p in sheet.players]
    out = []
    for group in tie_groups([p.total for p in sheet.players], keys):
        out.append(_tie_sentence(t, sheet, names, group, keys))
    return out


def _tie_sentence(t: Translate, sheet: ScoreSheet, names: list[str], group: TieGroup,
                  keys: Sequence[TieKey]) -> str:
    who = ", ".join(names[i] for i in group.players)
    rank = sheet.players[group.players[0]].rank
    if not group.used and group.still_level == [group.players]:  # nothing split them
        return t("games.tie.all_level", names=who, total=group.total,
                 criteria="; ".join(t(TIE_LABELS[k.key]) for k in keys),
                 rank=rank if rank is not None else "—")
    parts = [t("games.tie.tied", names=who, total=group.total)]
    by_key = {k.key: k for k in keys}
    if group.used:
        criteria = "; ".join(
            t(TIE_LABELS[k]) + " (" + ", ".join(
                f"{names[i]} {by_key[k].values[i]}" for i in group.players) + ")"
            for k in group.used)
        parts.append(t("games.tie.decided", criteria=criteria))
    for level in group.still_level:
        rank = sheet.players[level[0]].rank
        parts.append(t("games.tie.shared", names=", ".join(names[i] for i in level),
                       rank=rank if rank is not None else "—"))
    return " ".join(parts)


def share_text(t: Translate, game_label: str, day: str, sheet: ScoreSheet,
               keys: Sequence[TieKey]) -> str:
    lines = [f"{game_label} · {day}"]
    for p in ranked(sheet):
        if p.total is None:
            lines.append(f"– {p.name}: {t('games.final.out')} ({breakdown(t, p)})")
        else:
            lines.append(f"{p.rank}. {p.name} {p.total} ({breakdown(t, p)})")
    lines.append(winners_line(t, sheet))
    lines += tie_sentences(t, sheet, keys)
    return "\n".join(lines)


def final_section(screen: TallyScreen, keys: Sequence[TieKey],
                  missing_hint: str | None = None) -> list[ft.Control]:
    t = screen.ctx.t
    result = screen.ctl.sheet()
    if isinstance(result, EditRejected):
        lines = [t("games.final.missing")] + [screen.problem_text(p) for p in result.problems]
        out: list[ft.Control] = [heading(t("games.final.title")), banner(lines)]
        if missing_hint:
            out.append(ft.Text(missing_hint, size=SMALL_TEXT))
        return out
    sheet = result
    rows: list[ft.Control] = []
    for p in ranked(sheet):
        if p.total is None:
            head = ft.Text(f"–  {p.name} · {t('games.final.out')}", size=BODY_TEXT_SIZE + 2,
                           weight=ft.FontWeight.W_600)
        else:
            head = ft.Text(t("games.final.row", rank=p.rank, name=p.name, total=p.total),
                           size=BODY_TEXT_SIZE + 2, weight=ft.FontWeight.W_600)
        rows.append(card(None, [head, ft.Text(breakdown(t, p), size=SMALL_TEXT)],
                         identifier=f"final-{p.name}"))
    words = [winners_line(t, sheet), *tie_sentences(t, sheet, keys)]
    day = (screen.ctl.session.events[-1]["at"] if screen.ctl.session.events
           else screen.ctl.session.clock())[:10]
    text = share_text(t, t(screen.title_key), day, sheet, keys)
    device = screen.ctx.device

    def shared() -> None:
        if not device.can_share_natively:  # the browser copied it inside the tap
            screen.ctx.toast(t("common.copied"))

    share = ft.Semantics(identifier="final-share", content=ft.Row([ft.OutlinedButton(
        t("games.final.share"), icon=ft.Icons.SHARE, height=PRIMARY_BUTTON_HEIGHT,
        expand=True, action=device.share_action(text, subject=t(screen.title_key)),
        on_click=shared)]))
    out = [heading(t("games.final.title")), *rows,
           ft.Semantics(identifier="final-words", content=ft.Column(
               [ft.Text(w, size=BODY_TEXT_SIZE) for w in words], spacing=6))]
    if screen.finished:
        out.append(ft.Text(t("games.final.done"), size=SMALL_TEXT,
                           color=ft.Colors.ON_SURFACE_VARIANT))
        out.append(bgstats_button(screen.ctx, screen.params["session_id"]))  # issue 14
    else:
        out.append(big_button(t("games.final.finish"), ft.Icons.FLAG,
                              screen.ask_finish, identifier="final-finish"))
    out.append(share)
    return out
