"""The "check your components" data: every estimated printed value a new game will use,
with what the user said about it before (confirmed, corrected, or not checked yet).

The engine keeps one correction per component key; a setup card is checked per player
count, so which cards were looked at is remembered here too. Blocking store calls: run
these on the store thread."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from companion.store.base import SessionStore
from companion.village.components import ComponentWarning, component_warnings, load_components
from companion.village.service import VillageService

Status = Literal["unchecked", "confirmed", "corrected"]
# The order the check shows them in; keys not listed follow alphabetically.
ORDER = ("setup_cards", "time_track_length", "chronicle_sections", "graveyard_slots",
         "council_advance_time", "church_advance_grain", "scriptorium_train_time",
         "smithy_train_time", "stable_train_time", "travel_cities", "karla_track_spaces",
         "karla_fate_after", "karla_action_order", "player_colours", "final_turns_market")
# Estimates that are readings of the rules, not printed on any component: there is
# nothing in the box to check them against (the game's reading, interpretations.json,
# decides them), so the check does not ask.
NOT_ON_A_COMPONENT = frozenset({"final_turns_market"})


def checked_key(edition: str) -> str:
    return f"calibration_checked:village:{edition}"


@dataclass(frozen=True)
class Estimate:
    key: str  # component key
    item: str  # what was checked: the key, or "setup_cards.<n>" for one card
    original: Any  # the shipped estimate (this game's part of it)
    value: Any  # what new games will use now
    status: Status
    note: str  # where the estimate comes from (English, from the data file)
    seats: int  # players at the table (solo: 2)
    player_counts: tuple[int, ...]  # the edition's (they say which slot marks block)


def _part(key: str, value: object, seats: int) -> Any:
    return value.get(str(seats)) if key == "setup_cards" and isinstance(value, dict) else value


def load_estimates(store: SessionStore, edition: Literal["big-box", "2011"], *, solo: bool,
                   seats: int) -> list[Estimate]:
    svc = VillageService(store)
    shipped = load_components(edition)
    current = svc.components(edition)
    corrections = svc.corrections(edition)
    checked = set(store.get_setting(checked_key(edition), []) or [])
    keys = [k for k, p in shipped.values.items() if p.provenance == "estimate"
            and (solo or not k.startswith("karla_")) and k not in NOT_ON_A_COMPONENT]
    keys.sort(key=lambda k: (ORDER.index(k) if k in ORDER else len(ORDER), k))
    out = []
    for key in keys:
        item = f"setup_cards.{seats}" if key == "setup_cards" else key
        original = _part(key, shipped.v(key), seats)
        value = _part(key, current.v(key), seats)
        status: Status = "unchecked"
        if value != original:
            status = "corrected"
        elif item in checked or (key in corrections and key != "setup_cards"):
            status = "confirmed"
        out.append(Estimate(key, item, original, value, status, shipped.values[key].ref, seats,
                            tuple(current.numbers("player_counts"))))
    return out


def load_warnings(store: SessionStore, edition: Literal["big-box", "2011"], *,
                  seats: int) -> list[ComponentWarning]:
    """What the values a new game of `seats` players would use (the user's corrections
    included) contradict in the rulebook: shown, never refused."""
    mine = f"setup_cards.{seats}"  # another player count's card is not this game's
    return [w for w in component_warnings(VillageService(store).components(edition))
            if w.item == mine or not w.item.startswith("setup_cards.")]


def _mark(store: SessionStore, edition: str, item: str) -> None:
    checked = list(store.get_setting(checked_key(edition), []) or [])
    if item not in checked:
        store.set_setting(checked_key(edition), [*checked, item])


def confirm(store: SessionStore, edition: Literal["big-box", "2011"], est: Estimate) -> None:
    VillageService(store).confirm(edition, est.key)
    _mark(store, edition, est.item)


def correct(store: SessionStore, edition: Literal["big-box", "2011"], est: Estimate,
            value: object) -> None:
    """Raises ComponentProblem (naming the field) when the engine refuses the value."""
    svc = VillageService(store)
    if est.key == "setup_cards":  # only this player count's card was edited
        cards = dict(svc.components(edition).v("setup_cards"))
        cards[str(est.seats)] = value
        value = cards
    svc.correct(edition, est.key, value)
    _mark(store, edition, est.item)


def confirm_all(store: SessionStore, edition: Literal["big-box", "2011"],
                estimates: list[Estimate]) -> None:
    """"All match my box": each value not answered yet is confirmed, the same answer
    `confirm` saves for one (values already confirmed or corrected keep their answer)."""
    for est in estimates:
        if est.status == "unchecked":
            confirm(store, edition, est)
