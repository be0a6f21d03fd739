"""An editable payment: offered from the engine's printed cost, changed by the user.

Costs are offered, never enforced: the engine checks only that the player holds what the
payment names. The editor shows a one-line summary ("2 time · 1 pink · 1 coin") and, on
"Edit", a stepper per kind.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import flet as ft

from companion.app.kit import muted, stepper
from companion.app.village.present import payment_words, term
from companion.app.village.table.cubes import cube
from companion.core.json_types import JsonObject
from companion.village.commands import PAY_TIME_MAX, Payment

if TYPE_CHECKING:
    from companion.app.context import AppContext

COUNTERS = ("time", "coins", "grain")
COUNTER_KEYS = {"time": "panel.pay.time", "coins": "panel.pay.coins", "grain": "panel.pay.grain"}


@dataclass
class PaymentDraft:
    time: int = 0
    coins: int = 0
    grain: int = 0
    cubes: dict[str, int] = field(default_factory=dict)
    goods: dict[str, int] = field(default_factory=dict)
    editing: bool = False

    @classmethod
    def of(cls, pay: Payment) -> PaymentDraft:
        return cls(time=pay.time, coins=pay.coins, grain=pay.grain,
                   cubes={str(k): v for k, v in pay.cubes.items() if v},
                   goods={str(k): v for k, v in pay.goods.items() if v})

    def as_payment(self) -> Payment:
        """The command's `pay` field."""
        return Payment.model_validate(self.as_dict())

    def as_dict(self) -> JsonObject:
        """The command's `pay` field as stored (zeros left out)."""
        out: JsonObject = {k: getattr(self, k) for k in COUNTERS if getattr(self, k)}
        cubes = {k: v for k, v in self.cubes.items() if v}
        goods = {k: v for k, v in self.goods.items() if v}
        if cubes:
            out["cubes"] = cubes
        if goods:
            out["goods"] = goods
        return out

    def step(self, kind: str, key: str | None, delta: int) -> None:
        if key is None:  # time stops at the most one payment may name
            top = PAY_TIME_MAX if kind == "time" else None
            value = max(0, getattr(self, kind) + delta)
            setattr(self, kind, value if top is None else min(top, value))
        else:
            bucket: dict[str, int] = getattr(self, kind)
            bucket[key] = max(0, bucket.get(key, 0) + delta)


def payment_summary(ctx: AppContext, draft: PaymentDraft) -> str:
    return payment_words(ctx, time=draft.time, cubes=draft.cubes, coins=draft.coins,
                         grain=draft.grain, goods=draft.goods)


def payment_editor(ctx: AppContext, draft: PaymentDraft, refresh: Callable[[], object], *,
                   key: str, colours: Sequence[str], goods: Sequence[str],
                   kinds: Sequence[str] = ("time", "cubes", "coins", "grain", "goods"),
                   title: str | None = None, always_open: bool = False,
                   disabled: bool = False) -> ft.Column:
    """Summary line + Edit toggle; the steppers when editing (or `always_open`)."""
    t = ctx.t

    def toggle() -> None:
        draft.editing = not draft.editing
        refresh()

    def stepped(kind: str, item: str | None, delta: int) -> Callable[[], None]:
        def run() -> None:
            draft.step(kind, item, delta)
            refresh()
        return run

    head: list[ft.Control] = [
        ft.Column([muted(title or t("panel.pay.cost")),
                   ft.Text(payment_summary(ctx, draft), size=18, weight=ft.FontWeight.W_600,
                           key=f"{key}-summary")],
                  spacing=0, expand=True)]
    if not always_open:
        head.append(ft.TextButton(t("panel.pay.done") if draft.editing else t("panel.pay.edit"),
                                  icon=ft.Icons.EDIT, on_click=toggle, key=f"{key}-edit",
                                  disabled=disabled, height=48))
    rows: list[ft.Control] = [ft.Row(head, vertical_alignment=ft.CrossAxisAlignment.CENTER)]
    if not (draft.editing or always_open):
        return ft.Column(rows, spacing=4)
    for kind in kinds:
        if kind in COUNTERS:
            label = t(COUNTER_KEYS[kind])
            rows.append(stepper(label, getattr(draft, kind), stepped(kind, None, -1),
                                stepped(kind, None, +1), key=f"{key}-{kind}",
                                minus_tip=t("panel.common.less", what=label),
                                plus_tip=t("panel.common.more", what=label),
                                minus_disabled=getattr(draft, kind) == 0, disabled=disabled))
            continue
        items = colours if kind == "cubes" else goods
        bucket: dict[str, int] = getattr(draft, kind)
        for item in items:
            name = term(ctx, "colour" if kind == "cubes" else "goods", item)
            label_control: ft.Control = (
                ft.Row([cube(ctx, item), ft.Text(name, size=16)], spacing=8)
                if kind == "cubes" else ft.Text(name, size=16))
            rows.append(stepper(label_control, bucket.get(item, 0),
                                stepped(kind, item, -1), stepped(kind, item, +1),
                                key=f"{key}-{item}",
                                minus_tip=t("panel.common.less", what=name),
                                plus_tip=t("panel.common.more", what=name),
                                minus_disabled=bucket.get(item, 0) == 0, disabled=disabled))
    return ft.Column(rows, spacing=0)
