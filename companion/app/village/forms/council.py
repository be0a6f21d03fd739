"""Council: enter level 1, advance a member one level, or use a privilege in place."""

from __future__ import annotations

from typing import Any

import flet as ft

from companion.app.kit import choice_chips, muted
from companion.app.village.forms.base import (
    ActionForm,
    FormEnv,
    OfferedPayment,
    chosen_group,
    group_picker,
    mode_chips,
    setter,
)
from companion.app.village.panel.members import MemberGroup
from companion.app.village.present import term
from companion.village.commands import (
    Command,
    CouncilAdvance,
    CouncilEnter,
    CouncilPrivilege,
    Privilege,
)

PRIVILEGE_KEYS = {1: "panel.council.priv1", 2: "panel.council.priv2",
                  3: "panel.council.priv3", 4: "panel.council.priv4"}
NO_PRIVILEGE = "0"


class CouncilForm(ActionForm):
    action = "council"

    def __init__(self) -> None:
        self.mode = "enter"  # "enter", "advance", "privilege"
        self.member: str | None = None
        self.privilege = 0
        self.cubes: list[str] = []
        self.cube_picks: dict[int, str] = {}  # 2011: row -> colour (may repeat)
        self.goods: str | None = None
        self.pay = OfferedPayment()

    def reset(self) -> None:
        self.member = None
        self.privilege = 0
        self.cubes = []
        self.cube_picks = {}
        self.goods = None
        self.pay.reset()

    def _set_mode(self, mode: str) -> None:
        self.mode, self.member, self.privilege = mode, None, 0

    def _set_member(self, key: str) -> None:
        self.member = key

    def _set_privilege(self, level: str) -> None:
        self.privilege = int(level)

    def _toggle_cube(self, colour: str) -> None:
        # Two different colours: a third pick replaces the older one.
        if colour in self.cubes:
            self.cubes.remove(colour)
        else:
            self.cubes = [*self.cubes, colour][-2:]

    def _set_goods(self, goods: str) -> None:
        self.goods = goods

    # ---- what is chosen ------------------------------------------------------------------
    def _groups(self, env: FormEnv) -> list[MemberGroup]:
        if self.mode == "enter":
            return env.groups(["farmyard"])
        rules = env.rules
        return [g for g in env.groups(["council"]) if rules.council_can_advance(g.first)]

    def _reach(self, env: FormEnv, group: MemberGroup | None) -> int:
        """The highest privilege level usable with this choice."""
        if self.mode == "enter":
            return 1
        if self.mode == "advance":
            return int(group.loc.split(":")[1]) + 1 if group else 0
        levels = [m.level for m in env.state.members_in("council", env.player)]
        return max(levels, default=0)

    # ---- view ---------------------------------------------------------------------------
    def controls(self, env: FormEnv) -> list[ft.Control]:
        t = env.t
        out: list[ft.Control] = [mode_chips(
            env, [("enter", t("panel.council.enter")), ("advance", t("panel.council.advance")),
                  ("privilege", t("panel.council.privilege_only"))],
            self.mode, self._set_mode, "council-mode")]
        group = None
        if self.mode != "privilege":
            groups = self._groups(env)
            group = chosen_group(groups, self.member)
            out += group_picker(env, t("panel.council.which"), groups, group, self._set_member,
                                "council-member")
        reach = self._reach(env, group)
        out += self._privilege_controls(env, reach)
        if self.mode != "privilege" and group is not None:
            level = 1 if self.mode == "enter" else reach
            self.pay.offer((self.mode, level),
                           env.rules.council_payment(env.player, level))
            out.append(self.pay.editor(env, "council-pay"))
        return out

    def _privilege_controls(self, env: FormEnv, reach: int) -> list[ft.Control]:
        t = env.t
        if reach < 1:
            return [muted(t("panel.council.no_privilege"))]
        options = [] if self.mode == "privilege" else [(NO_PRIVILEGE, t("panel.council.none"))]
        options += [(str(lvl), t("panel.council.level", level=lvl)) for lvl in range(1, reach + 1)]
        if self.privilege > reach:
            self.privilege = 0
        out: list[ft.Control] = [
            muted(t("panel.council.privilege")),
            mode_chips(env, options, str(self.privilege), self._set_privilege, "council-priv")]
        if self.privilege:
            distinct = env.rules.privilege_cubes()[1]
            key = PRIVILEGE_KEYS[self.privilege]
            out.append(ft.Text(t("panel.council.priv2_any" if self.privilege == 2
                                 and not distinct else key), size=16))
        if self.privilege == 2:
            out += self._cube_pickers(env)
        if self.privilege == 3:
            out.append(choice_chips([(g, term(env.ctx, "goods", g)) for g in env.goods],
                                    self.goods, setter(env, self._set_goods),
                                    key="council-goods", disabled=not env.enabled))
        return out

    def _cube_pickers(self, env: FormEnv) -> list[ft.Control]:
        """Big Box: one set of chips, different colours. 2011: one row per cube, so one
        colour may be picked twice (004: 원하는 색큐브 2개)."""
        count, distinct = env.rules.privilege_cubes()
        options = [(c, term(env.ctx, "colour", c)) for c in env.colours]
        if distinct:
            return [choice_chips(options, set(self.cubes), setter(env, self._toggle_cube),
                                 key="council-cubes", disabled=not env.enabled)]
        out: list[ft.Control] = []
        for i in range(count):
            chosen = self.cube_picks.get(i)
            out += [muted(env.t("panel.council.cube_n", n=i + 1)),
                    choice_chips(options, chosen, setter(env, self._cube_setter(i)),
                                 key=f"council-cubes-{i + 1}", disabled=not env.enabled)]
        return out

    def _cube_setter(self, index: int) -> Any:
        def pick(colour: str) -> None:
            self.cube_picks[index] = colour
            # The command's cubes in row order (a row not picked yet is left out).
            self.cubes = [self.cube_picks[i] for i in sorted(self.cube_picks)]
        return pick

    # ---- command ------------------------------------------------------------------------
    def _privilege(self) -> Privilege | None:
        if not self.privilege:
            return None
        return Privilege(level=self.privilege,
                         cubes=list(self.cubes) if self.privilege == 2 else [],
                         goods=self.goods if self.privilege == 3 else None)

    def command(self, env: FormEnv) -> Command | None:
        if self.mode == "privilege":
            priv = self._privilege()
            return None if priv is None else CouncilPrivilege(privilege=priv)
        group = chosen_group(self._groups(env), self.member)
        if group is None:
            return None
        model = CouncilEnter if self.mode == "enter" else CouncilAdvance
        return model(member=group.first, pay=self.pay.draft.as_payment(),
                     privilege=self._privilege())
