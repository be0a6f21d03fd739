"""Crafts: train a member and/or produce in a workshop, buy its goods, or use the mill."""

from __future__ import annotations

import flet as ft

from companion.app.kit import muted, switch
from companion.app.village.forms.base import (
    ActionForm,
    FormEnv,
    OfferedPayment,
    chosen_group,
    group_picker,
    mode_chips,
)
from companion.app.village.present import term
from companion.village.commands import Command, CraftsBuy, CraftsTrain, Mill, Payment


class CraftsForm(ActionForm):
    action = "crafts"

    def __init__(self) -> None:
        self.mode = "train"  # "train" (train and/or produce), "buy", "mill"
        self.building = "wainwright"
        self.train: bool | None = None  # None: train if nobody is trained there yet
        self.produce = True
        self.member: str | None = None
        self.goods: str | None = None
        self.pay = OfferedPayment()

    def reset(self) -> None:
        self.member = None
        self.train = None
        self.produce = True
        self.pay.reset()

    # ---- choices ------------------------------------------------------------------------
    def _set(self, name: str, value: object) -> None:
        setattr(self, name, value)
        if name == "building":
            self.train = None

    def _training(self, env: FormEnv) -> bool:
        if self.train is None:  # producing needs a member trained there: offer training
            return not env.state.members_at(f"workshop:{self.building}", env.player)
        return self.train

    def _options(self, env: FormEnv) -> list[str]:
        return list(env.comp.name_lists("workshop_goods")[self.building])

    def _goods(self, env: FormEnv) -> str | None:
        options = self._options(env)
        if len(options) == 1:
            return options[0]
        return self.goods if self.goods in options else None

    def _printed(self, env: FormEnv) -> Payment:
        """The printed cost of the current choice (what the engine charges for None)."""
        if self.mode == "mill":
            return env.rules.mill_payment(env.player) or Payment()
        if self.mode == "buy":
            return env.rules.buy_payment(env.player, self.building)
        return env.rules.train_payment(self.building, self._training(env),
                                             self.produce)

    # ---- view ---------------------------------------------------------------------------
    def controls(self, env: FormEnv) -> list[ft.Control]:
        t = env.t
        out: list[ft.Control] = [mode_chips(
            env, [("train", t("panel.crafts.train_produce")), ("buy", t("panel.crafts.buy")),
                  ("mill", t("panel.crafts.mill"))],
            self.mode, lambda v: self._set("mode", v), "crafts-mode")]
        if self.mode != "mill":
            buildings = list(env.comp.name_lists("workshop_goods"))
            out.append(mode_chips(env, [(b, term(env.ctx, "building", b)) for b in buildings],
                                  self.building, lambda v: self._set("building", v),
                                  "crafts-building"))
        if self.mode == "train":
            out += self._train_controls(env)
        if self.mode != "mill" and len(self._options(env)) > 1 and (
                self.mode == "buy" or self.produce):
            out.append(mode_chips(env, [(g, term(env.ctx, "goods", g))
                                        for g in self._options(env)],
                                  self._goods(env) or "", lambda v: self._set("goods", v),
                                  "crafts-goods"))
        if self.mode == "mill":
            coins = env.comp.counts("mill")["coins"]
            out.append(ft.Text(env.ctx.tn("panel.crafts.mill_gain", coins, coins=coins),
                               size=16))
        choice = (self.mode, self.building, self._training(env), self.produce)
        self.pay.offer(choice, self._printed(env))
        out.append(self.pay.editor(env, "crafts-pay"))
        return out

    def _train_controls(self, env: FormEnv) -> list[ft.Control]:
        t = env.t
        loc = f"workshop:{self.building}"
        trained = len(env.state.members_at(loc, env.player))
        out: list[ft.Control] = [
            switch(t("panel.crafts.train"), self._training(env),
                   lambda: self._toggle(env, "train"), disabled=not env.enabled),
        ]
        if self._training(env):
            groups = env.groups(["farmyard"])
            out += group_picker(env, t("panel.crafts.which"), groups,
                                chosen_group(groups, self.member),
                                lambda v: self._set("member", v), "crafts-member")
        out.append(switch(t("panel.crafts.produce"), self.produce,
                          lambda: self._toggle(env, "produce"), disabled=not env.enabled))
        out.append(muted(t("panel.crafts.trained_here", count=trained)))
        return out

    def _toggle(self, env: FormEnv, name: str) -> None:
        if name == "train":
            self.train = not self._training(env)
        else:
            self.produce = not self.produce
        env.refresh()

    # ---- command ------------------------------------------------------------------------
    def command(self, env: FormEnv) -> Command | None:
        pay = self.pay.draft.as_payment()
        if self.mode == "mill":
            return Mill(pay=pay)
        goods = self._goods(env)
        if self.mode == "buy":
            return None if goods is None else CraftsBuy(building=self.building, goods=goods,
                                                        pay=pay)
        member = None
        if self._training(env):
            group = chosen_group(env.groups(["farmyard"]), self.member)
            if group is None:
                return None
            member = group.first
        if self.produce and goods is None:
            return None
        return CraftsTrain(building=self.building, train_member=member, produce=self.produce,
                           goods=goods if self.produce else None, pay=pay)
