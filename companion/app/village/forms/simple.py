"""The short action forms: grain harvest, family (birth or recall), church."""

from __future__ import annotations

import flet as ft

from companion.app.kit import muted
from companion.app.village.forms.base import (
    ActionForm,
    FormEnv,
    OfferedPayment,
    chosen_group,
    group_picker,
    mode_chips,
)
from companion.app.village.forms.payment import PaymentDraft
from companion.village.commands import Church, Command, FamilyBirth, FamilyRecall, Harvest, Payment
from companion.village.read import RECALL_PLACES


def harvest_amount(env: FormEnv) -> int:
    """Grain the harvest brings with this player's goods: the engine's own count."""
    return env.rules.harvest_amount(env.player)


class HarvestForm(ActionForm):
    action = "harvest"

    def controls(self, env: FormEnv) -> list[ft.Control]:
        p = env.state.players[env.player]
        cap = int(env.comp.n("grain_max"))
        return [ft.Text(env.t("panel.harvest.gain", amount=harvest_amount(env), grain=p.grain,
                              cap=cap), size=16),
                muted(env.t("panel.harvest.rule"))]

    def command(self, env: FormEnv) -> Command | None:
        return Harvest()


class FamilyForm(ActionForm):
    action = "family"

    def __init__(self) -> None:
        self.mode = "birth"
        self.member: str | None = None

    def reset(self) -> None:
        self.member = None

    def _set_mode(self, mode: str) -> None:
        self.mode = mode

    def _set_member(self, key: str) -> None:
        self.member = key

    def controls(self, env: FormEnv) -> list[ft.Control]:
        t = env.t
        out: list[ft.Control] = [mode_chips(
            env, [("birth", t("panel.family.birth")), ("recall", t("panel.family.recall"))],
            self.mode, self._set_mode, "family-mode")]
        if self.mode == "birth":
            waiting = env.state.members_at("supply", env.player)
            if waiting:
                gen = min(m.gen for m in waiting)
                out.append(ft.Text(t("panel.family.born", gen=gen), size=16))
            else:
                out.append(muted(t("panel.family.none_left"), size=16))
            return out
        groups = env.groups(RECALL_PLACES)
        out += group_picker(env, t("panel.family.which"), groups,
                            chosen_group(groups, self.member), self._set_member, "family-member")
        return out

    def command(self, env: FormEnv) -> Command | None:
        if self.mode == "birth":
            return FamilyBirth()
        group = chosen_group(env.groups(RECALL_PLACES), self.member)
        return None if group is None else FamilyRecall(member=group.first)


class ChurchForm(ActionForm):
    action = "church"

    def __init__(self) -> None:
        self.member: str | None = None
        self.pay = OfferedPayment()

    def reset(self) -> None:
        self.member = None
        self.pay.reset()

    def _set_member(self, key: str) -> None:
        self.member = key

    def _pay_with(self, env: FormEnv, how: str) -> None:
        cost = env.comp.counts("church_action")
        self.pay.draft = PaymentDraft.of(
            Payment(cubes={"brown": int(cost["brown"])}) if how == "brown"
            else Payment(time=int(cost["time"])))

    def controls(self, env: FormEnv) -> list[ft.Control]:
        t = env.t
        groups = env.groups(["farmyard"])
        out = group_picker(env, t("panel.church.which"), groups,
                           chosen_group(groups, self.member), self._set_member, "church-member")
        draft = self.pay.offer("church", env.rules.church_payment(env.player))
        cost = env.comp.counts("church_action")
        current = "brown" if draft.cubes.get("brown") else "time" if draft.time else ""
        out.append(mode_chips(env, [("brown", t("panel.church.pay_brown", count=cost["brown"])),
                                    ("time", t("panel.church.pay_time", count=cost["time"]))],
                              current, lambda how: self._pay_with(env, how), "church-pay"))
        out.append(self.pay.editor(env, "church-pay-edit"))
        out.append(muted(t("panel.church.rule")))
        return out

    def command(self, env: FormEnv) -> Command | None:
        group = chosen_group(env.groups(["farmyard"]), self.member)
        if group is None:
            return None
        return Church(member=group.first, pay=self.pay.draft.as_payment())
