"""One client's handle on an open Village session: dispatch commands off the event loop,
save before confirming, translate errors, and re-render every client on a change.

Screens never touch the engine or the store directly:

    ok = await controller.dispatch(TakeCube(space="market", colour="green"))

`dispatch` returns False (and shows the error naming the field) when the rules refuse.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from companion.app.shared_sessions import OpenShared, SharedHandle
from companion.app.table_mode.acting import (
    acted_by,
    acting_refusal,
    ask_take_back,
    for_another_seat,
    may_act_for,
    may_take_back,
    phone_seat,
)
from companion.app.village.hub import HUB
from companion.app.village.log.model import LogEntry, actor_of
from companion.app.village.log.words import describe
from companion.app.village.present import error_text, note_texts
from companion.app.village.table.round_end_data import round_end_of
from companion.core.json_types import JsonObject
from companion.village import chance
from companion.village.changes import PlayerChange, changes
from companion.village.commands import Command
from companion.village.read import Reader, RuleError, TurnOptions
from companion.village.service import VillageService
from companion.village.session import Outcome, VillageSession
from companion.village.state import VillageState

if TYPE_CHECKING:
    from companion.app.context import AppContext

logger = logging.getLogger(__name__)

# The engine's answer to "what may the current player do now" per session, for its
# current state (states are swapped, never changed in place). It tries every cube on a
# copy, so it is worked out once per change, on the store thread, never per screen; and
# kept for the last few states by their contents, so an undo or a redo back to a state
# seen before finds it ready.
OPTIONS_KEPT = 16
SAY_AFTER_S = 0.12  # an undo's message follows the change it explains by this much


@dataclass
class _Options:
    state: VillageState | None = None
    options: TurnOptions | None = None
    seen: OrderedDict[str, TurnOptions] = field(default_factory=OrderedDict)


_OPTIONS: weakref.WeakKeyDictionary[VillageSession, _Options] = weakref.WeakKeyDictionary()


_OPTIONS_LOCK = threading.Lock()  # the store thread warms it, the event loop reads it


def turn_options(session: VillageSession) -> TurnOptions:
    state = session.state
    with _OPTIONS_LOCK:
        cache = _OPTIONS.setdefault(session, _Options())
        if cache.state is state and cache.options is not None:
            return cache.options
        key = state.model_dump_json()
        options = cache.seen.get(key)
    if options is None:
        options = Reader(state, session.comp).turn_options()
    with _OPTIONS_LOCK:
        cache.seen[key] = options
        cache.seen.move_to_end(key)
        while len(cache.seen) > OPTIONS_KEPT:
            cache.seen.popitem(last=False)
        cache.state, cache.options = state, options
    return options


# What each accepted action did, per session (shared by every phone on it): the states
# before and after and the engine's notes, so a screen can say what changed (issue 20).
# States are swapped, never changed in place, so a step is current while its `after` is
# the session's state, and steps chain while one's `after` is the next one's `before`.
STEPS_KEPT = 16
# Commands that start a turn: a turn's summary runs from the last of them to now.
TURN_STARTS = frozenset({"take_cube", "well", "free_action"})


@dataclass(frozen=True)
class Step:
    before: VillageState
    after: VillageState
    command: str  # the type of the action's command (its first event)
    note_data: list[JsonObject]


_STEPS: weakref.WeakKeyDictionary[VillageSession, list[Step]] = weakref.WeakKeyDictionary()
_STEPS_LOCK = threading.Lock()


def record_step(session: VillageSession, before: VillageState, outcome: Outcome) -> None:
    command = str(outcome.events[0].get("body", {}).get("type", "")) if outcome.events else ""
    step = Step(before, session.state, command, list(outcome.note_data))
    with _STEPS_LOCK:
        steps = _STEPS.setdefault(session, [])
        steps.append(step)
        del steps[:-STEPS_KEPT]


def current_steps(session: VillageSession) -> list[Step]:
    """The chain of recorded steps that ends in the session's state now (oldest first);
    empty when the last change was not a recorded action (an undo, a reload)."""
    with _STEPS_LOCK:
        steps = list(_STEPS.get(session, []))
    chain: list[Step] = []
    state = session.state
    for step in reversed(steps):
        if step.after is not state:
            break
        chain.insert(0, step)
        state = step.before
    return chain


@dataclass(frozen=True)
class TakeBack:
    """The last undo, redo or go-back on a game, for the other clients showing it: what
    was taken back (`events`, worded from `state`) and on which phone (`seat`; None: the
    host, or a window of a game that is not shared)."""

    serial: int
    kind: Literal["undone", "redone", "went_back"]
    events: list[JsonObject]
    state: VillageState
    seat: int | None
    count: int = 1


_TAKE_BACKS: weakref.WeakKeyDictionary[VillageSession, TakeBack] = weakref.WeakKeyDictionary()
_TAKE_BACK_SERIAL = itertools.count(1)


@dataclass(frozen=True)
class Summary:
    """What changed, from the engine (companion.village.changes): `player` is whose turn
    it was, `turn_over` says the summary covers a whole turn that has ended."""

    player: int
    changes: list[PlayerChange]
    turn_over: bool
    note_data: list[JsonObject]


def summarize(session: VillageSession, steps: list[Step], turn_over: bool) -> Summary:
    notes = [n for step in steps for n in step.note_data]
    before = steps[0].before
    return Summary(before.current, changes(before, steps[-1].after, session.comp, notes),
                   turn_over, notes)


def last_action(session: VillageSession) -> Summary | None:
    """What the last action (one command) changed, while nothing came after it."""
    chain = current_steps(session)
    return summarize(session, chain[-1:], False) if chain else None


def last_turn(session: VillageSession) -> Summary | None:
    """What the turn that just ended changed (its cube, its action, its end, and what
    the end brought: a death chosen, Karla's take), while nothing of the next turn has
    happened; None otherwise."""
    chain = current_steps(session)
    starts = [i for i, step in enumerate(chain) if step.command in TURN_STARTS]
    # Without its start (the cube was taken before this server kept steps) the turn
    # summary begins where the kept steps do.
    turn = chain[starts[-1]:] if starts else chain
    if not any(step.command == "end_turn" for step in turn):
        return None
    return summarize(session, turn, True)


def group_words(ctx: AppContext, state: VillageState, events: list[JsonObject]) -> str:
    """The log's words for a group of events (its first event: the command that made
    it), judged from `state`, the state just before the group."""
    body = dict(events[0].get("body", {}))
    entry = LogEntry(seq=int(events[0].get("seq", 0)), group=int(events[0].get("group", 0)),
                     at=str(events[0].get("at", "")), body=body, actor=actor_of(state, body),
                     by=events[0].get("by"))
    return describe(ctx, state, entry)


class VillageController(SharedHandle[VillageSession]):
    def __init__(self, ctx: AppContext, opened: OpenShared[VillageSession]) -> None:
        super().__init__(ctx, opened)
        self.last_notes: list[str] = []  # translated table instructions of the last action

    # ---- construction (await these from a screen's did_appear) ---------------------------
    @classmethod
    async def open(cls, ctx: AppContext, session_id: str) -> VillageController:
        opened = await ctx.store.run(lambda s: HUB.open(s, session_id))
        return cls(ctx, opened)

    # ---- reading -----------------------------------------------------------------------
    @property
    def state(self) -> VillageState:
        return self.opened.session.state

    def turn_options(self) -> TurnOptions:
        """What the engine accepts from the current player now (see Reader.turn_options)."""
        return turn_options(self.session)

    # ---- acting ------------------------------------------------------------------------
    async def dispatch(self, command: Command,
                       on_refusal: Callable[[RuleError], object] | None = None) -> bool:
        """Apply a command; a refusal is toasted, or handed to `on_refusal` (a form that
        shows it beside the field it names, never over its buttons).

        Table mode: a phone acting for another player's seat is asked first (or refused,
        by the host's setting); the events record the phone's seat and the seat it acted
        for."""
        actor = self._actor(command)
        if not self.busy and acting_refusal(self.ctx) is None and not await may_act_for(
                self.ctx, actor, [p.name for p in self.state.players],
                Reader(self.state, self.session.comp).waiting_for()):
            return False
        by = acted_by(self.ctx, actor)
        return await self._run(lambda svc, s: svc.execute(self.session_id, s, command, by=by),
                               on_refusal, another_seat=for_another_seat(self.ctx, actor))

    def _actor(self, command: Command) -> int | None:
        """The player `command` acts for (None: nobody in particular, or Karla)."""
        state = self.state
        actor = actor_of(state, command.model_dump(mode="json"))
        if state.karla is not None and actor == state.karla.player:
            return None
        return actor

    async def enter_draw(self, outcome: chance.Outcome) -> bool:
        by = acted_by(self.ctx)
        return await self._run(lambda svc, s: svc.enter_draw(self.session_id, s, outcome,
                                                             by=by))

    async def redraw(self, draw: Literal["bag", "mass"],
                     outcome: chance.Outcome | None = None) -> bool:
        by = acted_by(self.ctx)
        return await self._run(lambda svc, s: svc.redraw(self.session_id, s, draw, outcome,
                                                         by=by))

    async def undo(self) -> bool:
        """Undo the last action; a message says what was undone (the log's words)."""
        session = self.session
        group = [e for e in session.events if int(e.get("group", -1)) == session.group]
        if not self.busy and acting_refusal(self.ctx) is None and group and (
                not may_take_back(self.ctx, [group]) or not await ask_take_back(
                    self.ctx, group, self._words(group), self.ctx.t("village.undo"))):
            return False

        def undo_it(svc: VillageService, s: VillageSession) -> object:
            done = svc.undo(self.session_id, s)
            if done and group:  # s.state: the one before the undone group
                self._publish_take_back(s, "undone", group, s.state)
            return done

        if not await self._run(undo_it):
            return False
        if group:  # the state now is the one before the undone group
            self.say_after_change(self.ctx.t("village.undone", what=self._words(group)))
        return True

    async def redo(self) -> bool:
        """Redo the undone action; a message says what was redone."""
        session = self.session
        redo = session.redo_stack
        group = [e for e in redo if redo and e.get("group") == redo[0].get("group")]
        before = session.state
        what = self._words(group, before) if group else None  # before it applies
        if not self.busy and acting_refusal(self.ctx) is None and group and what and (
                not may_take_back(self.ctx, [group]) or not await ask_take_back(
                    self.ctx, group, what, self.ctx.t("village.redo"))):
            return False

        def redo_it(svc: VillageService, s: VillageSession) -> object:
            done = svc.redo(self.session_id, s)
            if done and group:
                self._publish_take_back(s, "redone", group, before)
            return done

        if not await self._run(redo_it):
            return False
        if what is not None:
            self.say_after_change(self.ctx.t("village.redone", what=what))
        return True

    def say_after_change(self, message: str) -> None:
        """Show `message` once the phone has drawn the change it explains: sent with the
        change, the message's slide-in would hold the change back."""
        async def later() -> None:
            await asyncio.sleep(SAY_AFTER_S)
            try:
                self.ctx.toast(message)
            except Exception as exc:  # the page went away meanwhile
                logger.info("message skipped: %s", exc)

        self.ctx.spawn(later())

    def _words(self, events: list[JsonObject], state: VillageState | None = None) -> str:
        try:
            return group_words(self.ctx, state or self.state, events)
        except Exception:  # words are a courtesy: never fail an undo over them
            logger.exception("no words for the undone/redone events")
            return self.ctx.t("village.log.unknown", type=str(events[0].get("body", {})
                                                             .get("type", "?")))

    async def go_back_to(self, group: int) -> bool:
        later: dict[int, list[JsonObject]] = {}  # the actions undone, in one pass
        for event in self.session.events:
            if (g := int(event.get("group", -1))) > group:
                later.setdefault(g, []).append(event)
        groups = list(later.values())
        if not self.busy and acting_refusal(self.ctx) is None \
                and not may_take_back(self.ctx, groups):
            return False

        def go_back(svc: VillageService, s: VillageSession) -> object:
            count = svc.go_back_to(self.session_id, s, group)
            if count and groups:
                self._publish_take_back(s, "went_back", groups[0], s.state, count)
            return count > 0

        return await self._run(go_back)

    # ---- what the other clients are told -------------------------------------------------
    def _publish_take_back(self, session: VillageSession,
                           kind: Literal["undone", "redone", "went_back"],
                           events: list[JsonObject], state: VillageState,
                           count: int = 1) -> None:
        """Keep what this client took back for the other clients showing the game (they
        tell it as they re-render for the change: `take_back_news`); this one says it
        its own way. On the store thread, before the change is announced."""
        news = TakeBack(next(_TAKE_BACK_SERIAL), kind, events, state, phone_seat(self.ctx),
                        count)
        _TAKE_BACKS[session] = news
        self.ctx.seen[self._news_key] = news.serial

    @property
    def _news_key(self) -> str:
        return f"village.take_back.{self.session_id}"

    def take_back_news(self) -> str | None:
        """What another client undid, redid or went back over since this client last
        looked ("Bo's phone undid: Ann took brown from Harvest"), once; None otherwise,
        and on the first look (a screen opened later has no news)."""
        news = _TAKE_BACKS.get(self.session)
        seen = self.ctx.seen.get(self._news_key)
        self.ctx.seen[self._news_key] = news.serial if news is not None else 0
        if news is None or seen is None or seen == news.serial:
            return None
        t = self.ctx.t
        names = [p.name for p in self.state.players]
        if news.seat is not None and 0 <= news.seat < len(names):
            who = t("village.news.phone", player=names[news.seat])
        else:
            who = t("village.news.host" if self.ctx.share is not None
                    else "village.news.other_window")
        if news.kind == "went_back":
            return self.ctx.tn("village.news.went_back", news.count, who=who,
                               count=news.count)
        what = self._words(news.events, news.state)
        if news.kind == "redone":
            return t("village.news.redone", who=who, what=what)
        return t("village.news.undone", who=who, what=what)

    async def toggle_mark(self, instruction: str) -> bool:
        """Tick (or untick) a table instruction as done, saved with the game (no event:
        Undo leaves it alone); every client showing the game follows."""
        return await self._run(lambda svc, s: svc.set_table_marks(self.session_id, s,
                                                                  instruction))

    async def set_prefs(self, **prefs: Any) -> bool:
        return await self._run(lambda svc, s: svc.set_prefs(self.session_id, s, **prefs))

    def acting_refusal(self) -> str | None:
        return acting_refusal(self.ctx)  # table mode: a watching phone may not act

    def saved(self, result: object) -> None:
        if isinstance(result, Outcome):
            self.last_notes = note_texts(self.ctx, result.note_data)
        elif result is not False:
            self.last_notes = []

    async def _run(self, work: Callable[[VillageService, VillageSession], object],
                   on_refusal: Callable[[RuleError], object] | None = None, *,
                   another_seat: bool = False) -> bool:
        """Apply + save on the store thread (SharedHandle.run); also keep what the action
        changed and work out what the table asks next, there rather than on the loop.
        `another_seat`: a phone acted for a seat not its own (a refusal is worded for an
        onlooker)."""
        session = self.session

        def apply(store: Any) -> Any:
            before = session.state
            result = work(VillageService(store), session)
            if isinstance(result, Outcome):
                record_step(session, before, result)
            try:  # what the table asks next, worked out here rather than on the loop
                turn_options(session)
                round_end_of(session)  # the round-end screen's steps
            except Exception:
                logger.exception("turn options of the new state failed")
            return result

        ran = await self.run(apply)
        if isinstance(ran.refusal, RuleError) and on_refusal is not None:
            on_refusal(ran.refusal)  # shown beside the field it names
        elif ran.refusal is not None:
            self.ctx.toast(error_text(self.ctx, ran.refusal, another_seat=another_seat))
        return ran.done and ran.result is not False
