"""Words for the final score: tie-breaks explained in the app's language, and the plain
text that "Share" sends."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from companion.app.village.present import term
from companion.scoring.contract import ScoreSheet
from companion.village.components import ComponentData
from companion.village.scoring import CATEGORIES, solo_won
from companion.village.state import VillageState

if TYPE_CHECKING:
    from companion.app.context import AppContext

TIEBREAK_KEYS = {"grain": "panel.score.tb_grain", "living": "panel.score.tb_living",
                 "customers": "panel.score.tb_customers", "youngest": "panel.score.tb_youngest"}


def tiebreak_value(state: VillageState, kind: str, player: int) -> int:
    """The values the engine's tie-breaks compare (see scoring.sheet_from_state)."""
    if kind == "grain":
        return state.players[player].grain
    if kind == "customers":
        return len(state.players[player].customers)
    alive = [m for m in state.members_of(player) if m.living and m.loc != "supply"]
    if kind == "living":
        return len(alive)
    return max((m.gen for m in alive), default=0)  # "youngest"


def tie_explanations(ctx: AppContext, state: VillageState, comp: ComponentData,
                     sheet: ScoreSheet) -> list[str]:
    """One paragraph per group of players level on total: each tie-break with everyone's
    value, until it decides; or that the rank is shared."""
    t = ctx.t
    humans = state.humans()
    totals: dict[int, list[int]] = {}
    for row, result in enumerate(sheet.players):
        if result.total is not None:
            totals.setdefault(result.total, []).append(row)
    out = []
    for total, rows in sorted(totals.items(), reverse=True):
        if len(rows) < 2:
            continue
        names = ", ".join(sheet.players[r].name for r in rows)
        lines = [t("panel.score.tied", total=total, players=names)]
        level = rows
        for kind in comp.names("tie_breaks"):
            values = {r: tiebreak_value(state, str(kind), humans[r]) for r in level}
            shown = ", ".join(f"{sheet.players[r].name} {v}" for r, v in values.items())
            lines.append(t("panel.score.tb_line", rule=t(TIEBREAK_KEYS[str(kind)]),
                           values=shown))
            best = max(values.values())
            level = [r for r in level if values[r] == best]
            if len(level) == 1:
                break
        if len(level) > 1:
            shared = ", ".join(sheet.players[r].name for r in level)
            lines.append(t("panel.score.shared", players=shared,
                           rank=sheet.players[level[0]].rank))
        else:
            lines.append(t("panel.score.decided", player=sheet.players[level[0]].name,
                           rank=sheet.players[level[0]].rank))
        out.append("\n".join(lines))
    return out


def result_line(ctx: AppContext, sheet: ScoreSheet, comp: ComponentData) -> str | None:
    """Who won, as the history and BG Stats say it (companion.history.results): a solo
    game (its one player has an achievement) is won or lost against Karla by the
    achievement (companion.village.scoring.solo_won); else the sheet's winners."""
    solo = [r for r in sheet.players if r.achievement]
    if len(sheet.players) == 1 and solo:
        won = solo_won(comp, solo[0].achievement)
        if won is None:
            return None
        return ctx.t("panel.score.solo_won" if won else "panel.score.solo_lost",
                     opponent=ctx.t("village.karla"))
    if sheet.winners:
        return ctx.t("panel.score.winners", players=", ".join(sheet.winners))
    return None


def share_text(ctx: AppContext, sheet: ScoreSheet, ties: Sequence[str], date: str,
               comp: ComponentData) -> str:
    t = ctx.t
    lines = [t("panel.score.share_head", game=t("game.village"), date=date)]
    for result in sorted(sheet.players, key=lambda r: (r.rank or 99, r.name)):
        lines.append(t("panel.score.share_row", rank=result.rank, player=result.name,
                       total=result.total))
        parts = [f"{term(ctx, 'category', c)} {result.categories.get(c, 0)}"
                 for c in CATEGORIES]
        lines.append("   " + " · ".join(parts))
        if result.achievement:
            lines.append("   " + t("panel.score.achievement",
                                   name=term(ctx, "achievement", result.achievement)))
    said = result_line(ctx, sheet, comp)
    if said:
        lines.append(said)
    lines += ties
    return "\n".join(lines)
