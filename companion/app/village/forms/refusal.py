"""A refused form says why right under the part it concerns (never over its buttons)."""

from __future__ import annotations

from typing import Any

import flet as ft

# A refusal's field (its path's first part) -> the form part it concerns: the control
# keyed "<action>-<part>" (or holding keys "<action>-<part>-…"), e.g. "pay.coins" on the
# council form -> the payment editor "council-pay".
FIELD_PARTS = {"pay": "pay", "member": "member", "train_member": "member",
               "privilege": "priv", "building": "building", "goods": "goods", "city": "city",
               "route_cubes": "route", "reward": "reward", "reward_cubes": "reward",
               "cubes": "cubes", "slot": "slot", "points": "points"}


def _holds_key(control: ft.Control, prefix: str) -> bool:
    key = getattr(control, "key", None)
    if isinstance(key, str) and (key == prefix or key.startswith(prefix + "-")):
        return True
    children: list[Any] = list(getattr(control, "controls", None) or [])
    content = getattr(control, "content", None)
    if isinstance(content, ft.Control):
        children.append(content)
    return any(_holds_key(c, prefix) for c in children if isinstance(c, ft.Control))


def with_refusal(controls: list[ft.Control], action: str, field: str,
                 text: str) -> list[ft.Control]:
    """The form's controls with the refusal's words right under the part it concerns;
    at the top of the form when it names none (always above the form's buttons)."""
    root = field.split(".", 1)[0].split("[", 1)[0]
    part = FIELD_PARTS.get(root)
    at = 0
    if part is not None:
        found = [i for i, c in enumerate(controls) if _holds_key(c, f"{action}-{part}")]
        at = found[-1] + 1 if found else 0
    note = ft.Semantics(identifier="form-refusal", live_region=True, content=ft.Row(
        [ft.Icon(ft.Icons.ERROR_OUTLINE, color=ft.Colors.ERROR),
         ft.Text(text, color=ft.Colors.ERROR, size=16, expand=True, key="form-refusal")],
        spacing=8, vertical_alignment=ft.CrossAxisAlignment.START))
    return [*controls[:at], note, *controls[at:]]
