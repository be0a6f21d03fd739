"""The wizard's chronicle and graveyard drawings block the slots the engine blocks
(components.slot_open, the rule new games are set up by): a 2011 table of 4 blocks no
slot marked 5 (004 blocks only below 4 players), a Big Box table of 4 blocks it."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import flet as ft

from companion.app.context import AppContext
from companion.app.village.wizard.schematics import schematic
from companion.i18n import Translator
from companion.village.components import Edition, load_components
from companion.village.setup import PlayerSetup, VillageSetup, slot_capacities

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed"]
COLOURS = ["red", "blue", "yellow", "white", "purple"]


def make_setup_for(edition: Edition, seats: int) -> VillageSetup:
    """A new game of `seats` players in `edition` (today's rules version)."""
    return VillageSetup(edition=edition, players=[
        PlayerSetup(name=n, colour=c) for n, c in zip(NAMES[:seats], COLOURS, strict=False)])


def _closed(control: Any) -> int:
    """Blocked slots drawn under `control` (each shows a CLOSE icon)."""
    if isinstance(control, ft.Icon):
        return int(control.icon == ft.Icons.CLOSE)
    children = [getattr(control, "content", None), *(getattr(control, "controls", None) or [])]
    return sum(_closed(c) for c in children if c is not None)


def test_the_drawing_blocks_what_the_engine_blocks() -> None:
    words = Translator("en")  # the drawings only ask for words
    ctx = cast(AppContext, SimpleNamespace(t=words.t, tn=words.tn, translator=words))
    editions: list[tuple[Edition, int]] = [("2011", 4), ("2011", 2), ("big-box", 4),
                                           ("big-box", 3)]
    for edition, seats in editions:
        comp = load_components(edition)
        counts = comp.numbers("player_counts")
        graves = comp.numbers("graveyard_slots")
        chronicle, open_graves = slot_capacities(make_setup_for(edition, seats), comp, seats)
        drawn = schematic(ctx, "graveyard_slots", graves, seats, counts)
        assert _closed(drawn) == len(graves) - open_graves, (edition, seats)
        sections = comp.number_lists("chronicle_sections")
        drawn = schematic(ctx, "chronicle_sections", sections, seats, counts)
        assert _closed(drawn) == sum(len(m) for m in sections.values()) - sum(
            chronicle.values()), (edition, seats)
    assert _closed(schematic(ctx, "graveyard_slots", [2, 5], 4,
                             load_components("2011").numbers("player_counts"))) == 0
