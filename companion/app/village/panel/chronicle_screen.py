"""`/play/village/:session_id/chronicle` — the village chronicle's sections and the
graveyard, slot by slot, and the game-end banner with who still gets a final turn."""

from __future__ import annotations

import flet as ft

from companion.app.kit import card, muted, notice_card
from companion.app.village.panel.base import PanelScreen
from companion.app.village.panel.turn import turn_line
from companion.app.village.present import term
from companion.app.village.table.cubes import piece
from companion.app.village.table.words import player_name
from companion.village.read import Slots
from companion.village.state import Member

SLOT = 34


class ChronicleScreen(PanelScreen):
    identifier = "chronicle-panel"

    def title(self) -> str:
        return self.ctx.t("panel.chronicle.title")

    def body_controls(self) -> list[ft.Control]:
        st = self.state
        out: list[ft.Control] = [muted(turn_line(self.ctx, st), size=16)]
        if st.end is not None:
            out.append(self._end_banner())
        reader = self.rules()
        for section, slots in reader.chronicle_slots().items():
            out.append(self._slots(term(self.ctx, "section", section),
                                   st.members_at(f"chronicle:{section}"), slots,
                                   key=f"chronicle-{section}"))
        out.append(self._slots(self.ctx.t("panel.chronicle.graveyard"),
                               st.members_in("graveyard"), reader.graveyard_slots(),
                               key="graveyard"))
        out.append(self._per_player())
        return out

    def _slots(self, title: str, members: list[Member], slots: Slots, *,
               key: str) -> ft.Control:
        """Used slots show the member (colour + generation), then free, then blocked: the
        counts are the engine's (Reader.chronicle_slots, graveyard_slots)."""
        t = self.ctx.t
        st = self.state
        members = sorted(members, key=lambda m: (m.owner, m.gen, m.id))
        boxes: list[ft.Control] = [piece(st.players[m.owner].colour, str(m.gen), SLOT)
                                   for m in members]
        boxes += [ft.Container(width=SLOT, height=SLOT, border_radius=SLOT / 2,
                               border=ft.Border.all(2, ft.Colors.OUTLINE))
                  for _ in range(max(0, slots.free))]
        boxes += [ft.Container(width=SLOT, height=SLOT, border_radius=SLOT / 2,
                               bgcolor=ft.Colors.OUTLINE_VARIANT, opacity=0.5,
                               content=ft.Icon(ft.Icons.BLOCK, size=18))
                  for _ in range(slots.blocked)]
        count = ft.Text(t("panel.chronicle.used", used=slots.used, capacity=slots.capacity,
                          free=slots.free), size=16, key=f"{key}-count",
                        color=ft.Colors.ERROR if slots.free <= 0 else None)
        return card(title, [count, ft.Row(boxes, spacing=6, wrap=True)], identifier=key)

    def _per_player(self) -> ft.Control:
        t = self.ctx.t
        st = self.state
        rows: list[ft.Control] = []
        for i, p in enumerate(st.players):
            rows.append(ft.Row([
                piece(p.colour, size=20),
                # The counts under the name: beside it, they squeezed a long name
                # until it broke inside itself.
                ft.Column([
                    ft.Text(player_name(self.ctx, st, i), size=16),
                    ft.Text(t("panel.chronicle.player_counts",
                              chronicle=len(st.members_in("chronicle", i)),
                              graveyard=len(st.members_in("graveyard", i))), size=16)],
                    spacing=0, tight=True, expand=True),
            ], key=f"dead-{i}"))
        free = st.chronicle_total_free()
        rows.append(muted(t("panel.chronicle.end_rule", free=free,
                            graves=st.graveyard_free())))
        return card(t("panel.chronicle.per_player"), rows, identifier="chronicle-players")

    def _end_banner(self) -> ft.Control:
        t = self.ctx.t
        st = self.state
        end = st.end
        assert end is not None
        lines = [t("panel.chronicle.end", player=player_name(self.ctx, st, end.triggered_by))]
        if st.phase == "turns":
            if end.order_set:
                lines.append(t("panel.chronicle.now_final",
                               player=player_name(self.ctx, st, st.current)))
                order = list(end.final_order)
            else:
                # Settled when the trigger turn ends; until then the engine's rule says it.
                order = self.rules().final_order()
            names = ", ".join(player_name(self.ctx, st, i) for i in order)
            lines.append(t("panel.chronicle.final_turns", players=names) if names
                         else t("panel.chronicle.no_final_turns"))
        elif st.phase in ("mass_buyout", "mass_advance"):
            lines.append(t("panel.chronicle.final_mass"))
        else:
            lines.append(t("panel.chronicle.turns_done"))
        return notice_card("\n".join(lines), ft.Icons.FLAG, identifier="game-end")
