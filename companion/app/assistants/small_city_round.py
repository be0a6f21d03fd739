"""Small City, the Round section: round/phase tracker plus the helper for the phase the
table is in (special-action pick cost, trades, voting, pollution, the mayor's next visit).

Drafts (residences being counted, pollution figures being typed) live on the screen, so
switching sections or a refused edit never loses what was entered.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

import flet as ft

from companion.app.assistants.play import TallyScreen
from companion.app.kit import (
    BODY_TEXT_SIZE,
    SMALL_TEXT,
    TOUCH_TARGET,
    big_button,
    card,
    chip,
    chips,
    icon_button,
    number_field,
    parse_count,
)
from companion.app.routing import RouteParams
from companion.small_city import voting
from companion.small_city.data import (
    ACTION_CIRCLE_SIZE,
    MATERIAL_TO_MONEY,
    MATERIAL_TO_VOTES,
    MAX_RESIDENTS_PER_RESIDENCE,
    MONEY_TO_VOTES,
    ROUNDS,
)
from companion.small_city.pollution import PollutionOutcome, TownPollution, pollution_phase
from companion.small_city.tally import (
    AddVotes,
    MeasurePollution,
    PickAction,
    SetMayor,
    SetStep,
    SmallCityState,
    Trade,
    TradeKind,
    cost_for,
    measured,
    next_mayor_clockwise,
    next_picker,
    next_step,
    round_picks,
)
from companion.tally.api import AdjustField

if TYPE_CHECKING:
    from companion.app.context import AppContext

PHASE_KEYS = ("games.sc.phase.special_action", "games.sc.phase.build",
              "games.sc.phase.move_residents", "games.sc.phase.income",
              "games.sc.phase.voting", "games.sc.phase.pollution",
              "games.sc.phase.city_council", "games.sc.phase.mayor_visit")
MATERIAL_KEYS = {"white": "games.sc.white", "grey": "games.sc.grey", "black": "games.sc.black"}
TOWN_FIELDS = ("residents", "materials", "parks")
TOWN_FIELD_KEYS = {"residents": "games.sc.residents", "materials": "games.sc.materials",
                   "parks": "games.sc.parks"}
CIRCLE_BOX = 288
CARD_SIZE = 60


@dataclass
class RoundDrafts:
    """What the table is entering right now (kept across re-renders)."""

    target: int | None = None  # card tapped in the action circle
    vote_player: int = 0
    residences: dict[int, list[int]] = field(default_factory=dict)
    university: dict[int, bool] = field(default_factory=dict)
    trade_player: int = 0
    towns: dict[int, dict[str, str]] = field(default_factory=dict)
    engineer: dict[int, bool] = field(default_factory=dict)
    town_errors: dict[tuple[int, str], str] = field(default_factory=dict)


class SmallCityRound(TallyScreen):
    """The Small City screen's round: the drafts being entered and the handlers of the
    Round section's helpers. `small_city.SmallCityScreen` builds on it and adds the
    Players, Promises and Final sections."""

    def __init__(self, ctx: AppContext, params: RouteParams) -> None:
        super().__init__(ctx, params)
        self.drafts = RoundDrafts()
        self.preview_box = ft.Column(spacing=4)  # pollution preview, refreshed per keystroke

    @property
    def state(self) -> SmallCityState:
        state: SmallCityState = self.ctl.state
        return state

    # ---- round handlers ------------------------------------------------------------------
    def go_step(self, round_number: int, phase: int) -> None:
        self.drafts.target = None
        self.edit(SetStep(round=round_number, phase=phase))

    def tap_card(self, position: int) -> None:
        self.drafts.target = position
        self.problems = []
        self.render()

    def pick(self, player: int, position: int) -> None:
        def done() -> None:
            self.drafts.target = None

        self.edit(PickAction(player=player, position=position), then=done)

    def nudge(self, player: int, field: str, delta: int) -> None:
        self.edit(AdjustField(player=player, field=field, delta=delta))

    def choose_trade_player(self, player: int) -> None:
        self.drafts.trade_player = player
        self.render()

    def choose_vote_player(self, player: int) -> None:
        self.drafts.vote_player = player
        self.render()

    def add_residence(self, residents: int) -> None:
        self.drafts.residences.setdefault(self.drafts.vote_player, []).append(residents)
        self.render()

    def remove_residence(self, index: int) -> None:
        residences = self.drafts.residences.get(self.drafts.vote_player, [])
        if 0 <= index < len(residences):
            residences.pop(index)
        self.render()

    def set_university(self, active: bool) -> None:
        self.drafts.university[self.drafts.vote_player] = active
        self.render()

    def record_votes(self) -> None:
        player = self.drafts.vote_player
        residences = list(self.drafts.residences.get(player, []))
        university = self.drafts.university.get(player, False)

        def done() -> None:  # counted: start the next player's count from empty
            self.drafts.residences[player] = []
            self.drafts.university[player] = False

        self.edit(lambda: AddVotes(player=player, residences=residences,
                                   university=university), then=done)

    def set_town_figure(self, player: int, name: str, text: str,
                        field: ft.TextField) -> None:
        self.drafts.towns.setdefault(player, {})[name] = text
        bad = parse_count(text) is None
        message = self.ctx.t("games.bad_number", field=field.label) if bad else None
        if message:
            self.drafts.town_errors[(player, name)] = message
        else:
            self.drafts.town_errors.pop((player, name), None)
        field.error = message
        self._refresh_pollution_preview()

    def set_engineer(self, player: int, engineer: bool) -> None:
        self.drafts.engineer[player] = engineer
        self._refresh_pollution_preview()

    def _refresh_pollution_preview(self) -> None:
        # Only the preview changes while typing: rebuilding the fields would drop focus.
        towns, valid = town_inputs(self)
        if valid and towns:
            lines = outcome_lines(self, *preview(pollution_phase(towns)))
            shown: list[ft.Control] = [ft.Text(self.ctx.t("games.sc.pollution_preview"),
                                               weight=ft.FontWeight.W_600)]
            shown += [ft.Text(line, size=BODY_TEXT_SIZE) for line in lines]
            self.preview_box.controls = shown
        else:
            self.preview_box.controls = [ft.Text(self.ctx.t("games.sc.fix_figures"),
                                                 color=ft.Colors.ERROR)]

    def record_pollution(self) -> None:
        st = self.state
        towns = []
        bad = False
        for i, row in enumerate(st.players):
            if row.out:
                continue
            figures = self.drafts.towns.get(i, {})
            town: dict[str, object] = {"player": i,
                                       "engineer": self.drafts.engineer.get(i, False)}
            for name in TOWN_FIELDS:
                value = parse_count(figures.get(name, "0"))
                if value is None:
                    bad = True
                    self.drafts.town_errors[(i, name)] = self.ctx.t(
                        "games.bad_number", field=self.ctx.t(TOWN_FIELD_KEYS[name]))
                town[name] = value
            towns.append(town)
        if bad:  # say which field, keep everything typed
            self.render()
            return

        def done() -> None:
            self.drafts.towns.clear()
            self.drafts.engineer.clear()

        # Validated as a whole, so a refused figure is named "towns[k].<figure>".
        self.edit(lambda: MeasurePollution.model_validate({"towns": towns}), then=done)


def phase_name(screen: SmallCityRound, number: int) -> str:
    return screen.ctx.t(PHASE_KEYS[number - 1])


def round_section(screen: SmallCityRound) -> list[ft.Control]:
    t = screen.ctx.t
    st: SmallCityState = screen.state
    locked = screen.finished
    out: list[ft.Control] = []  # the status line above already names round and phase
    phase_chips = [chip(str(n), n == st.phase, partial(screen.go_step, st.round, n),
                        disabled=locked, identifier=f"phase-{n}")
                   for n in range(1, len(PHASE_KEYS) + 1)]
    out.append(ft.Row([
        ft.Text(t("games.sc.round", round=st.round, rounds=ROUNDS), size=BODY_TEXT_SIZE,
                expand=True),
        icon_button(ft.Icons.CHEVRON_LEFT, t("games.sc.previous_round"),
                    partial(screen.go_step, st.round - 1, st.phase),
                    disabled=locked or st.round <= 1),
        icon_button(ft.Icons.CHEVRON_RIGHT, t("games.sc.next_round"),
                    partial(screen.go_step, st.round + 1, st.phase),
                    disabled=locked or st.round >= ROUNDS),
    ]))
    out.append(ft.Row(phase_chips, wrap=True, spacing=6, run_spacing=6))
    helper = {1: action_helper, 2: build_helper, 4: trade_helper, 5: voting_helper,
              6: pollution_helper, 7: council_helper, 8: mayor_helper}.get(st.phase)
    if helper is not None:
        out += helper(screen)
    else:
        out.append(ft.Text(t("games.sc.move_hint"), size=BODY_TEXT_SIZE))
    return out  # the next step is the screen's footer (next_step_button), always in view


def next_step_button(screen: SmallCityRound) -> ft.Control | None:
    """"Next: Build" (or the next round, or the final sheet), kept above the section bar:
    at the end of the round section it sat under the bar on a 360x800 phone."""
    t = screen.ctx.t
    st: SmallCityState = screen.state
    step = next_step(st)
    if step is None:
        return big_button(t("games.sc.to_final"), ft.Icons.EMOJI_EVENTS,
                          partial(screen.select, "final"), identifier="next-phase")
    if screen.finished:
        return None
    label = (t("games.sc.next_phase", name=phase_name(screen, step[1])) if step[1] > 1
             else t("games.sc.next_round_button", round=step[0]))
    return big_button(label, ft.Icons.ARROW_FORWARD, partial(screen.go_step, *step),
                      identifier="next-phase")


# ---- phase 1: the special-action circle -------------------------------------------------


def action_helper(screen: SmallCityRound) -> list[ft.Control]:
    t = screen.ctx.t
    st: SmallCityState = screen.state
    drafts = screen.drafts
    names = screen.names
    picks = round_picks(st)
    taken = {p.position: p for p in picks}
    previous = picks[-1].position if picks else None
    picker = next_picker(st)
    out: list[ft.Control] = []
    if not picks and not screen.finished:  # the mayor can still be corrected
        out.append(ft.Text(t("games.sc.change_mayor"), size=SMALL_TEXT))
        out.append(chips(list(enumerate(names)), st.mayor,
                         lambda i: screen.edit(SetMayor(player=i)),
                         id_prefix="mayor"))
    else:
        out.append(ft.Text(t("games.sc.mayor_is", name=names[st.mayor]), size=BODY_TEXT_SIZE))
    out.append(ft.Text(t("games.sc.circle_hint"), size=SMALL_TEXT,
                       color=ft.Colors.ON_SURFACE_VARIANT))
    cards: list[ft.Control] = []
    centre = CIRCLE_BOX / 2
    radius = centre - CARD_SIZE / 2 - 4
    for pos in range(ACTION_CIRCLE_SIZE):
        angle = -math.pi / 2 + 2 * math.pi * pos / ACTION_CIRCLE_SIZE
        pick = taken.get(pos)
        selected = drafts.target == pos
        colour = (ft.Colors.SURFACE_CONTAINER_HIGHEST if pick else
                  ft.Colors.PRIMARY_CONTAINER if selected else ft.Colors.SURFACE_CONTAINER_LOW)
        caption = names[pick.player][:6] if pick else ""
        cards.append(ft.Container(
            left=centre + radius * math.cos(angle) - CARD_SIZE / 2,
            top=centre + radius * math.sin(angle) - CARD_SIZE / 2,
            width=CARD_SIZE, height=CARD_SIZE, border_radius=CARD_SIZE / 2, bgcolor=colour,
            border=ft.Border.all(3 if pos == previous or selected else 1,
                                 ft.Colors.PRIMARY if pos == previous or selected
                                 else ft.Colors.OUTLINE_VARIANT),
            on_click=None if pick or screen.finished else partial(screen.tap_card, pos),
            ink=True, alignment=ft.Alignment.CENTER,
            content=ft.Semantics(identifier=f"card-{pos + 1}", button=pick is None,
                                 content=ft.Column(
                [ft.Text(str(pos + 1), size=18, weight=ft.FontWeight.W_600),
                 *([ft.Text(caption, size=11, max_lines=1)] if caption else [])],
                spacing=0, alignment=ft.MainAxisAlignment.CENTER,
                horizontal_alignment=ft.CrossAxisAlignment.CENTER))))
    out.append(ft.Row([ft.Stack(cards, width=CIRCLE_BOX, height=CIRCLE_BOX)],
                      alignment=ft.MainAxisAlignment.CENTER))
    if picker is None:
        out.append(ft.Text(t("games.sc.all_picked"), size=BODY_TEXT_SIZE))
    elif drafts.target is None or drafts.target in taken:
        out.append(ft.Text(t("games.sc.next_picker", name=names[picker],
                             money=st.players[picker].money), size=BODY_TEXT_SIZE))
    else:
        cost = cost_for(st, drafts.target)
        money = st.players[picker].money
        words = (t("games.sc.card_free", number=drafts.target + 1, name=names[picker])
                 if cost == 0 else
                 t("games.sc.card_costs", number=drafts.target + 1, name=names[picker],
                   cost=cost))
        out.append(ft.Semantics(identifier="pick-cost", content=ft.Text(
            words, size=BODY_TEXT_SIZE, weight=ft.FontWeight.W_600)))
        if cost > money:
            out.append(ft.Text(t("games.sc.cannot_afford", name=names[picker], money=money),
                               color=ft.Colors.ERROR))
        else:
            out.append(big_button(t("games.sc.take_card", name=names[picker],
                                    number=drafts.target + 1), ft.Icons.CHECK,
                                  partial(screen.pick, picker, drafts.target),
                                  identifier="take-card"))
    for p in picks:
        words = (t("games.sc.picked", name=names[p.player], number=p.position + 1,
                   cost=p.cost) if p.cost else
                 t("games.sc.picked_free", name=names[p.player], number=p.position + 1))
        out.append(ft.Text(words, size=SMALL_TEXT))
    return out


# ---- phases 2, 4, 7: money and votes ------------------------------------------------------


def quick_rows(screen: SmallCityRound, fields: tuple[str, ...]) -> list[ft.Control]:
    """Per player: -/+ for money (and votes) without leaving the round."""
    t = screen.ctx.t
    st: SmallCityState = screen.state
    labels = {"money": t("games.field.money"), "votes": t("games.field.votes")}
    rows: list[ft.Control] = []
    for i, row in enumerate(st.players):
        if row.out:
            continue
        cells: list[ft.Control] = [ft.Text(row.name, size=BODY_TEXT_SIZE, width=72,
                                           max_lines=1, overflow=ft.TextOverflow.ELLIPSIS)]
        for name in fields:
            value = getattr(row, name)
            shown = f"${value}" if name == "money" else str(value)
            cells += [
                icon_button(ft.Icons.REMOVE, t("games.decrease_for", what=labels[name],
                                                  name=row.name),
                            partial(screen.nudge, i, name, -1), disabled=screen.finished),
                ft.Text(shown, width=36, text_align=ft.TextAlign.CENTER,
                        weight=ft.FontWeight.W_600),
                icon_button(ft.Icons.ADD, t("games.increase_for", what=labels[name],
                                                  name=row.name),
                            partial(screen.nudge, i, name, +1), disabled=screen.finished)]
        rows.append(ft.Row(cells, spacing=0, vertical_alignment=ft.CrossAxisAlignment.CENTER))
    return rows


def build_helper(screen: SmallCityRound) -> list[ft.Control]:
    return [ft.Text(screen.ctx.t("games.sc.build_hint"), size=SMALL_TEXT),
            *quick_rows(screen, ("money",))]


def council_helper(screen: SmallCityRound) -> list[ft.Control]:
    return [ft.Text(screen.ctx.t("games.sc.council_hint"), size=SMALL_TEXT),
            *quick_rows(screen, ("money", "votes"))]


def trade_helper(screen: SmallCityRound) -> list[ft.Control]:
    t = screen.ctx.t
    st: SmallCityState = screen.state
    player = screen.drafts.trade_player
    row = st.players[player]
    locked = screen.finished or row.out

    # Every argument is bound in the partials below: Flet passes the click event to a
    # handler that still has a free parameter.
    def trade(kind: TradeKind, dollars: int | None, material: str | None) -> None:
        # The rules' tables name materials as plain strings: the model checks the name.
        screen.edit(lambda: Trade.model_validate({"player": player, "kind": kind,
                                                  "dollars": dollars, "material": material}))

    def button(label: str, on_click: Callable[[], None], disabled: bool = False) -> ft.Control:
        return ft.OutlinedButton(label, on_click=on_click, height=TOUCH_TARGET,
                                 disabled=locked or disabled)

    out: list[ft.Control] = [
        ft.Text(t("games.sc.income_hint"), size=SMALL_TEXT),
        chips(list(enumerate(screen.names)), player, screen.choose_trade_player,
              id_prefix="trade-player"),
        ft.Text(screen.ctx.tn("games.sc.has", row.votes, money=row.money, votes=row.votes),
                size=BODY_TEXT_SIZE, weight=ft.FontWeight.W_600),
        ft.Row([button(t("games.sc.income_plus"), partial(screen.nudge, player, "money", 1))],
               wrap=True),
        ft.Text(t("games.sc.money_to_votes"), size=SMALL_TEXT),
        ft.Row([button(screen.ctx.tn("games.sc.trade_money", v, dollars=d, votes=v),
                       partial(trade, "money_to_votes", d, None), disabled=row.money < d)
                for d, v in MONEY_TO_VOTES.items()], wrap=True, spacing=6, run_spacing=6),
        ft.Text(t("games.sc.material_to_money"), size=SMALL_TEXT),
        ft.Row([button(t("games.sc.trade_material_money", material=t(MATERIAL_KEYS[m]),
                         money=d),
                       partial(trade, "material_to_money", None, m))
                for m, d in MATERIAL_TO_MONEY.items()], wrap=True, spacing=6, run_spacing=6),
        ft.Text(t("games.sc.material_to_votes"), size=SMALL_TEXT),
        ft.Row([button(screen.ctx.tn("games.sc.trade_material_votes", v,
                                     material=t(MATERIAL_KEYS[m]), votes=v),
                       partial(trade, "material_to_votes", None, m))
                for m, v in MATERIAL_TO_VOTES.items()], wrap=True, spacing=6, run_spacing=6),
    ]
    return out


# ---- phase 5: voting ---------------------------------------------------------------------


def voting_helper(screen: SmallCityRound) -> list[ft.Control]:
    t = screen.ctx.t
    st: SmallCityState = screen.state
    drafts = screen.drafts
    player = drafts.vote_player
    residences = drafts.residences.setdefault(player, [])
    university = drafts.university.get(player, False)
    votes = voting.voting_phase(residences, university)
    locked = screen.finished or st.players[player].out
    out: list[ft.Control] = [
        ft.Text(t("games.sc.voting_hint"), size=SMALL_TEXT),
        chips(list(enumerate(screen.names)), player, screen.choose_vote_player,
              id_prefix="vote-player"),
        ft.Text(t("games.sc.add_residence"), size=BODY_TEXT_SIZE),
        ft.Row([ft.Semantics(identifier=f"residence-{n}", content=ft.OutlinedButton(
                    str(n), on_click=partial(screen.add_residence, n), height=TOUCH_TARGET,
                    width=56, disabled=locked,
                    tooltip=screen.ctx.tn("games.sc.residence_with", n, count=n)))
                for n in range(1, MAX_RESIDENTS_PER_RESIDENCE + 1)], wrap=True, spacing=6),
    ]
    if residences:
        out.append(ft.Row([
            ft.OutlinedButton(t("games.sc.residence_chip", count=n,
                                votes=voting.residence_votes(n)),
                              icon=ft.Icons.CLOSE, height=TOUCH_TARGET,
                              tooltip=t("games.sc.remove_residence"), disabled=locked,
                              on_click=partial(screen.remove_residence, k))
            for k, n in enumerate(residences)], wrap=True, spacing=6, run_spacing=6))
    out.append(ft.Switch(label=t("games.sc.university"), value=university,
                         on_change=lambda e: screen.set_university(bool(e.control.value)),
                         disabled=locked, height=TOUCH_TARGET))
    out.append(ft.Semantics(identifier="vote-total", content=ft.Text(
        screen.ctx.tn("games.sc.vote_total", votes, votes=votes), size=BODY_TEXT_SIZE + 2,
        weight=ft.FontWeight.W_600)))
    out.append(big_button(screen.ctx.tn("games.sc.add_votes", votes, votes=votes,
                                        name=screen.names[player]),
                          ft.Icons.HOW_TO_VOTE, screen.record_votes, identifier="add-votes"))
    for record in st.votes_gained:
        if record.round == st.round:
            out.append(ft.Text(screen.ctx.tn("games.sc.votes_added", record.votes,
                                             name=screen.names[record.player],
                                             votes=record.votes), size=SMALL_TEXT))
    return out


# ---- phase 6: pollution ------------------------------------------------------------------


def town_inputs(screen: SmallCityRound) -> tuple[list[TownPollution], bool]:
    """Drafts -> the rules' inputs (players still in); False if a figure is not valid."""
    st: SmallCityState = screen.state
    towns, valid = [], True
    for i, row in enumerate(st.players):
        if row.out:
            continue
        figures = screen.drafts.towns.get(i, {})
        values = {name: parse_count(figures.get(name, "0")) for name in TOWN_FIELDS}
        if any(v is None for v in values.values()):
            valid = False
            continue
        towns.append(TownPollution(name=str(i), level=row.pollution,
                                   residents=values["residents"] or 0,
                                   materials=values["materials"] or 0,
                                   parks=values["parks"] or 0,
                                   engineer=screen.drafts.engineer.get(i, False)))
    return towns, valid


def outcome_lines(screen: SmallCityRound, produced: dict[int, tuple[int, int]],
                  losers: list[int], eliminated: list[int], triggered: bool) -> list[str]:
    t = screen.ctx.t
    names = screen.names
    lines = [t("games.sc.town_result", name=names[i], produced=p, level=lv)
             for i, (p, lv) in produced.items()]
    if not triggered:
        lines.append(t("games.sc.no_deaths"))
    elif losers:
        lines.append(t("games.sc.loses_resident", names=", ".join(names[i] for i in losers)))
    if eliminated:
        lines.append(t("games.sc.eliminated", names=", ".join(names[i] for i in eliminated)))
    return lines


def preview(outcome: PollutionOutcome) -> tuple[dict[int, tuple[int, int]], list[int],
                                                 list[int], bool]:
    produced = {int(r.name): (r.produced, r.level) for r in outcome.towns}
    return (produced, [int(n) for n in outcome.losers], [int(n) for n in outcome.eliminated],
            outcome.deaths_triggered)


def pollution_helper(screen: SmallCityRound) -> list[ft.Control]:
    t = screen.ctx.t
    st: SmallCityState = screen.state
    done = measured(st, st.round)
    out: list[ft.Control] = [ft.Text(t("games.sc.pollution_hint"), size=SMALL_TEXT)]
    if done is not None:
        lines = outcome_lines(screen, {r.player: (r.produced, r.level) for r in done.towns},
                              done.losers, done.eliminated, done.deaths_triggered)
        shown: list[ft.Control] = [ft.Text(t("games.sc.pollution_recorded", round=st.round),
                                           weight=ft.FontWeight.W_600)]
        shown += [ft.Text(line, size=BODY_TEXT_SIZE) for line in lines]
        out.append(card(None, shown, identifier="pollution-result"))
        out.append(ft.Text(t("games.sc.undo_to_remeasure"), size=SMALL_TEXT,
                           color=ft.Colors.ON_SURFACE_VARIANT))
        return out
    for i, row in enumerate(st.players):
        if row.out:
            continue
        figures = screen.drafts.towns.setdefault(i, {})
        fields: list[ft.Control] = [
            number_field(t(TOWN_FIELD_KEYS[name]), figures.get(name, "0"),
                         partial(screen.set_town_figure, i, name),
                         error=screen.drafts.town_errors.get((i, name)))
            for name in TOWN_FIELDS]
        out.append(card(None, [
            ft.Text(t("games.sc.town_of", name=row.name, level=row.pollution),
                    weight=ft.FontWeight.W_600),
            ft.Row(fields, spacing=6),
            ft.Switch(label=t("games.sc.engineer"), value=screen.drafts.engineer.get(i, False),
                      on_change=lambda e, i=i: screen.set_engineer(i, bool(e.control.value)),
                      height=TOUCH_TARGET),
        ], identifier=f"town-{i}"))
    towns, valid = town_inputs(screen)
    screen.preview_box.controls = []
    if valid and towns:
        lines = outcome_lines(screen, *preview(pollution_phase(towns)))
        heading_line: list[ft.Control] = [ft.Text(t("games.sc.pollution_preview"),
                                                  weight=ft.FontWeight.W_600)]
        screen.preview_box.controls = heading_line + [ft.Text(line, size=BODY_TEXT_SIZE)
                                                      for line in lines]
    out.append(ft.Semantics(identifier="pollution-preview", content=screen.preview_box))
    out.append(big_button(t("games.sc.record_pollution", round=st.round), ft.Icons.FACTORY,
                          screen.record_pollution, identifier="record-pollution"))
    return out


# ---- phase 8: the mayor's next visit -----------------------------------------------------


def mayor_helper(screen: SmallCityRound) -> list[ft.Control]:
    t = screen.ctx.t
    st: SmallCityState = screen.state
    names = screen.names
    passes_to = next_mayor_clockwise(st)
    out: list[ft.Control] = [
        ft.Text(t("games.sc.mayor_is", name=names[st.mayor]), size=BODY_TEXT_SIZE),
        ft.Text(t("games.sc.who_took_mayor"), size=SMALL_TEXT),
        chips([(i, n) for i, n in enumerate(names) if not st.players[i].out], None,
              lambda i: screen.edit(SetMayor(player=i)), id_prefix="new-mayor"),
        ft.OutlinedButton(t("games.sc.nobody_took_mayor", name=names[passes_to]),
                          height=TOUCH_TARGET, disabled=screen.finished,
                          on_click=lambda: screen.edit(SetMayor(player=passes_to))),
    ]
    return out
