"""The frame of an action form: what it sees (FormEnv), what it gives (a command dict),
and the pickers every form uses (member groups, modes)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

import flet as ft

from companion.app.kit import choice_chips, muted
from companion.app.village.forms.payment import PaymentDraft, payment_editor
from companion.app.village.panel.members import MemberGroup, group_label, group_members
from companion.village.commands import Command, Payment
from companion.village.components import ComponentData
from companion.village.read import Reader
from companion.village.state import VillageState

if TYPE_CHECKING:
    from companion.app.context import AppContext


@dataclass
class FormEnv:
    ctx: AppContext
    state: VillageState
    comp: ComponentData
    player: int
    enabled: bool
    refresh: Callable[[], object]  # re-render the form after a local change

    @property
    def rules(self) -> Reader:
        """The engine's read API: printed costs as the engine charges them."""
        return Reader(self.state, self.comp)

    @property
    def colours(self) -> list[str]:
        return list(self.comp.names("influence_colours"))

    @property
    def goods(self) -> list[str]:
        return list(self.comp.names("goods_types"))

    def t(self, key: str, **kwargs: object) -> str:
        return self.ctx.t(key, **kwargs)

    def groups(self, places: Iterable[str]) -> list[MemberGroup]:
        wanted = set(places)
        return group_members(m for m in self.state.members_of(self.player)
                             if m.place in wanted)


class OfferedPayment:
    """The payment a form offers: reset to the engine's printed cost whenever the choice
    or that cost changes, kept as the user edited it otherwise."""

    def __init__(self) -> None:
        self.draft = PaymentDraft()
        self._offered: tuple[object, Payment] | None = None

    def offer(self, choice: object, printed: Payment) -> PaymentDraft:
        if self._offered != (choice, printed):
            self._offered = (choice, printed)
            self.draft = PaymentDraft.of(printed)
        return self.draft

    def reset(self) -> None:
        self._offered = None

    def editor(self, env: FormEnv, key: str) -> ft.Control:
        return payment_editor(env.ctx, self.draft, env.refresh, key=key, colours=env.colours,
                              goods=env.goods, disabled=not env.enabled)


class ActionForm:
    """One action space's form. `controls` renders it; `command` is what Apply sends
    (None while something is still to be chosen)."""

    action: ClassVar[str]

    def controls(self, env: FormEnv) -> list[ft.Control]:
        raise NotImplementedError

    def command(self, env: FormEnv) -> Command | None:
        raise NotImplementedError

    def reset(self) -> None:
        """Forget the choices after a successful apply."""


def setter(env: FormEnv, apply: Callable[[str], object]) -> Callable[[str], None]:
    """A chip handler: store the pick, then re-render the form."""
    def pick(value: str) -> None:
        apply(value)
        env.refresh()
    return pick


def mode_chips(env: FormEnv, options: Sequence[tuple[str, str]], selected: str,
               on_pick: Callable[[str], object], key: str) -> ft.Control:
    return choice_chips(options, selected, setter(env, on_pick), key=key,
                        disabled=not env.enabled)


def chosen_group(groups: Sequence[MemberGroup], key: str | None) -> MemberGroup | None:
    """The group still matching `key`; the only group when there is just one."""
    for g in groups:
        if g.key == key:
            return g
    return groups[0] if len(groups) == 1 else None


def group_picker(env: FormEnv, title: str, groups: Sequence[MemberGroup],
                 selected: MemberGroup | None, on_pick: Callable[[str], object],
                 key: str) -> list[ft.Control]:
    if not groups:
        return [muted(title), muted(env.t("panel.form.no_member"), size=16)]
    options = [(g.key, group_label(env.ctx, g)) for g in groups]
    return [muted(title),
            choice_chips(options, selected.key if selected else None, setter(env, on_pick),
                         key=key, disabled=not env.enabled)]
