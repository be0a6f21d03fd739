"""Travel: which member, which city, the route's cubes, and the reward of a new city."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from companion.app.kit import muted, stepper
from companion.app.village.forms.base import (
    ActionForm,
    FormEnv,
    OfferedPayment,
    chosen_group,
    group_picker,
    mode_chips,
)
from companion.app.village.present import term
from companion.app.village.table.cubes import cube
from companion.village.commands import Command, Travel

REWARD_CUBES = 2


class TravelForm(ActionForm):
    action = "travel"

    def __init__(self) -> None:
        self.pay = OfferedPayment()
        self.reset()

    def reset(self) -> None:  # every choice starts over after a journey
        self.member: str | None = None
        self.city = 0
        self.route: dict[str, int] = {}
        self.reward: str | None = None
        self.reward_cubes: dict[str, int] = {}
        self.pay.reset()

    def _set_member(self, key: str) -> None:
        self.member = key

    def _set_city(self, city: str) -> None:
        self.city = int(city)

    def _set_reward(self, reward: str) -> None:
        self.reward = reward

    def _step(self, env: FormEnv, bucket: dict[str, int], colour: str,
              delta: int) -> Callable[[], None]:
        def run() -> None:
            bucket[colour] = max(0, bucket.get(colour, 0) + delta)
            env.refresh()
        return run

    def _new_city(self, env: FormEnv) -> bool:
        return self.city > 0 and self.city not in env.state.players[env.player].cities

    # ---- view ---------------------------------------------------------------------------
    def controls(self, env: FormEnv) -> list[ft.Control]:
        t = env.t
        groups = env.groups(["farmyard", "travel"])
        out = group_picker(env, t("panel.travel.which"), groups,
                           chosen_group(groups, self.member), self._set_member, "travel-member")
        visited = env.state.players[env.player].cities
        cities = [(str(c), t("panel.travel.city_visited", city=c) if c in visited
                   else t("panel.travel.city", city=c))
                  for c in env.comp.cities()]
        out += [muted(t("panel.travel.where")),
                mode_chips(env, cities, str(self.city), self._set_city, "travel-city"),
                muted(t("panel.travel.route"))]
        out += self._cube_steppers(env, self.route, "travel-route")
        if self._new_city(env):
            rewards = [(r, term(env.ctx, "reward", r)) for r in env.comp.names("travel_rewards")]
            out += [muted(t("panel.travel.reward")),
                    mode_chips(env, rewards, self.reward or "", self._set_reward,
                               "travel-reward")]
            if self.reward == "cubes":
                out.append(muted(t("panel.travel.reward_cubes", count=REWARD_CUBES)))
                out += self._cube_steppers(env, self.reward_cubes, "travel-reward-cubes",
                                           cap=REWARD_CUBES)
        elif self.city:
            out.append(muted(t("panel.travel.no_reward", city=self.city)))
        route = {c: n for c, n in self.route.items() if n}
        self.pay.offer(tuple(sorted(route.items())),
                       env.rules.travel_payment(env.player, route))
        out.append(self.pay.editor(env, "travel-pay"))
        return out

    def _cube_steppers(self, env: FormEnv, bucket: dict[str, int], key: str,
                       cap: int | None = None) -> list[ft.Control]:
        full = cap is not None and sum(bucket.values()) >= cap
        rows: list[ft.Control] = []
        for colour in env.colours:
            name = term(env.ctx, "colour", colour)
            rows.append(stepper(ft.Row([cube(env.ctx, colour), ft.Text(name, size=16)],
                                       spacing=8),
                                bucket.get(colour, 0), self._step(env, bucket, colour, -1),
                                self._step(env, bucket, colour, +1), key=f"{key}-{colour}",
                                minus_tip=env.t("panel.common.less", what=name),
                                plus_tip=env.t("panel.common.more", what=name),
                                minus_disabled=bucket.get(colour, 0) == 0, plus_disabled=full,
                                disabled=not env.enabled))
        return rows

    # ---- command ------------------------------------------------------------------------
    def command(self, env: FormEnv) -> Command | None:
        group = chosen_group(env.groups(["farmyard", "travel"]), self.member)
        if group is None or not self.city:
            return None
        reward, reward_cubes = None, []
        if self._new_city(env):
            if self.reward is None:
                return None
            reward = self.reward
            if self.reward == "cubes":
                reward_cubes = [c for c, n in self.reward_cubes.items() for _ in range(n)]
        return Travel(member=group.first, city=self.city,
                      route_cubes={c: n for c, n in self.route.items() if n},
                      reward=reward, reward_cubes=reward_cubes,
                      pay=self.pay.draft.as_payment())
