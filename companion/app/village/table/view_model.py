"""What the table shows that follows from the game alone: worked out once per change and
language, and shared by every client showing the game (issue 23).

Four phones at a table re-render on every change. Each keeps its own controls, seat, lock
and dialogs, but the Reader's answers and the words derived from the state (whose turn,
the stage, the players' lines, the last turn's changes, the round's instructions, the
banners' facts) are the same for every phone that reads the same language: the first
phone to render after a change computes them (`compute_table_view`), the others take the
same `TableView`. Nothing here depends on a client but its language (`ctx.t`).

A change is recognised by the session's state object (states are swapped, never changed
in place), its saved version (every accepted change is saved) and the lengths of its log
and redo stack and its preferences; a view made for an older change is never used.
"""

from __future__ import annotations

import json
import threading
import weakref
from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TypeVar

from companion.app.village.change_words import change_lines, karla_lines
from companion.app.village.controller import last_turn
from companion.app.village.table.cubes import hex_of
from companion.app.village.table.instructions import Instruction, RoundDraw, note_instructions
from companion.app.village.table.round_end_data import current_round_end, open_steps
from companion.app.village.table.sections import last_bag_draw, player_sig, round_draw
from companion.app.village.table.words import player_name, stage_text
from companion.village import table_marks
from companion.village.changes import PlayerChange
from companion.village.components import ComponentData
from companion.village.read import Reader
from companion.village.round_end import RoundEnd
from companion.village.session import VillageSession
from companion.village.state import VillageState

if TYPE_CHECKING:
    from companion.app.context import AppContext

T = TypeVar("T")


@dataclass(frozen=True)
class LastTurn:
    """The last-turn card's inputs (None in `TableView.last_turn`: no card)."""

    sig: tuple[Any, ...]
    title: str
    changes: tuple[PlayerChange, ...]
    karla: tuple[str, ...]
    show_empty: bool


@dataclass(frozen=True)
class TableView:
    title: str  # the app bar's
    header: tuple[str, str, str, str]  # dot colour, whose turn, round info, stage
    players: tuple[tuple[Any, ...], ...]  # each player's tile (sections.player_sig)
    last_turn: LastTurn | None
    done: frozenset[str]  # the instructions ticked done
    draw: RoundDraw | None  # the round's draw
    notes: tuple[Instruction, ...]  # the last action's instructions (not in the draw)
    round_end: tuple[int, bool, int] | None  # (round, final, steps left) while open
    mass_redraw: bool  # the mass's draw may be redone now
    bag_redraw: bool = False  # the round's draw may be redone now, from the round end's banner


def change_key(session: VillageSession) -> tuple[Any, ...]:
    return (session.saved_version, len(session.events), len(session.redo_stack),
            session.draw_mode, session.karla_policy)


class _Memo:
    def __init__(self, state: object, key: tuple[Any, ...]) -> None:
        self.state, self.key = state, key
        self.values: dict[Hashable, Any] = {}


_MEMO: weakref.WeakKeyDictionary[VillageSession, _Memo] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def shared(session: VillageSession, name: Hashable, compute: Callable[[], T]) -> T:
    """`compute()` once per change of `session` under `name`; the same value after."""
    key = change_key(session)
    with _LOCK:
        memo = _MEMO.get(session)
        if memo is None or memo.state is not session.state or memo.key != key:
            memo = _MEMO[session] = _Memo(session.state, key)
        if name in memo.values:
            return memo.values[name]
    value = compute()
    with _LOCK:
        memo.values.setdefault(name, value)
    return value


def forget(session: VillageSession) -> None:
    """Drop what was worked out for `session` (the engine's answers changed under an
    unchanged game: a test that patches a rule)."""
    with _LOCK:
        _MEMO.pop(session, None)


def table_view(ctx: AppContext, session: VillageSession) -> TableView:
    """The table's view of `session` now in `ctx`'s language (shared, see the module)."""
    return shared(session, ("table", ctx.language),
                  lambda: compute_table_view(ctx, session))


def done_marks(session: VillageSession) -> frozenset[str]:
    """The instructions ticked done (saved with the game). The round end's 'put the drawn
    cubes on the spaces' step, once ticked there, ticks the draw's lines too."""
    done = table_marks.done(session.table_marks, session.state)
    end = current_round_end(session)
    if end is not None and f"end{end.round}-bag_draw" in done:
        drawn = last_bag_draw(session)
        if drawn is not None:
            done = done | {f"draw{drawn[0]}-{s}" for s in drawn[1]}
    return done


def header_texts(ctx: AppContext, state: VillageState,
                 comp: ComponentData) -> tuple[str, str, str, str]:
    """The turn header's (dot colour, whose turn, round info, stage): the live table's and
    the replay's."""
    t = ctx.t
    starter = player_name(ctx, state, state.start_player)
    return (hex_of(state.players[state.current].colour),
            t("village.table.turn", player=player_name(ctx, state, state.current)),
            t("village.table.round_info", round=state.round, player=starter)
            if state.round else t("village.table.setup_info", player=starter),
            stage_text(ctx, state, comp))


def compute_table_view(ctx: AppContext, session: VillageSession) -> TableView:
    t, state = ctx.t, session.state
    title = (t("village.table.title", round=state.round) if state.round
             else t("village.table.setup"))
    header = header_texts(ctx, state, session.comp)
    reader = Reader(state, session.comp)
    players = tuple(player_sig(ctx, reader, i) for i in range(len(state.players)))
    done = done_marks(session)
    end = current_round_end(session)
    left = open_steps(end, done) if end is not None else 0
    # While the round end has steps to do, its list is the table's one to-do list: the
    # new round's draw is its last step ("put the drawn cubes on the spaces"), so the
    # table lists it there only (two overlapping lists, found in a walk-through), and the
    # ways to redraw it come with the round end's banner.
    in_round_end = end is not None and left > 0
    draw = None if in_round_end else round_draw(ctx, session, done)
    listed = _round_end_lines(end) if in_round_end and end is not None else frozenset()
    notes = [n for n in session.last_note_data  # the draw lists the draw itself
             if ((draw is None and not in_round_end) or n.get("key") != "put_on_space")
             and _line_key(n.get("key"), n.get("params", {})) not in listed
             and not (in_round_end and n.get("key") in ROUND_END_HEADINGS)]
    shown = {line.id for line in draw.lines} if draw is not None else set()
    lines = tuple(line for line in note_instructions(ctx, session.group, notes)
                  if line.id not in shown)
    return TableView(
        title=title, header=header, players=players, last_turn=_last_turn(ctx, session),
        done=done, draw=draw, notes=lines,
        round_end=(end.round, end.final, left) if end is not None and left else None,
        mass_redraw=(state.phase in ("mass_buyout", "mass_advance")
                     and reader.redraw_allowed("mass")),
        bag_redraw=in_round_end and reader.redraw_allowed("bag"))


ROUND_END_HEADINGS = frozenset({"round_mass", "final_mass"})  # the round end's title


def _line_key(key: object, params: object) -> str:
    return json.dumps([key, params], sort_keys=True, default=str)


def _round_end_lines(end: RoundEnd) -> frozenset[str]:
    """The engine notes the round end's steps list (the table lists them there only)."""
    return frozenset(_line_key(line.key, dict(line.params))
                     for step in end.steps for line in step.lines)


def _last_turn(ctx: AppContext, session: VillageSession) -> LastTurn | None:
    """What the turn that just ended changed and, solo, Karla's take after it."""
    summary = last_turn(session)
    state = session.state
    karla = karla_lines(ctx, summary.note_data if summary is not None
                        else session.last_note_data) if state.solo else []
    if summary is None and not karla:
        return None
    player = summary.player if summary is not None else state.humans()[0]
    title = ctx.t("village.changes.turn_title", player=player_name(ctx, state, player))
    changes = summary.changes if summary is not None else []
    if karla:  # her take is worded with her reasons: her cube needs no line of its own
        changes = [c for c in changes if not (
            state.players[c.player].kind == "karla" and replace(c, cubes={}).empty)]
    lines = tuple(tuple(change_lines(ctx, c, session.comp)) for c in changes)
    sig = (title, lines, tuple(karla), tuple(c.player for c in changes))
    return LastTurn(sig, title, tuple(changes), tuple(karla), summary is not None)
