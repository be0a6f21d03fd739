"""A Village session: setup + append-only event log + redo stack, with the state as a fold.

Each user action is one *group* of events: the command plus the chance outcomes the app
drew because of it. Undo pops the last group and never re-rolls (redo re-applies the very
same events); a new command clears the redo stack; `redraw` is its own logged event. The
log and redo bookkeeping is companion.core.log's; the state is refolded from the log.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal, cast, get_args

from pydantic import BaseModel, TypeAdapter, ValidationError

from companion.core.errors import EngineFault
from companion.core.json_types import JsonObject
from companion.core.log import Event, EventLog, LogSnapshot
from companion.village import chance
from companion.village.commands import Command, KarlaChooseCube, OverrideScore
from companion.village.components import ComponentData, load_components
from companion.village.engine import apply_event, start_state
from companion.village.rules.context import Ctx
from companion.village.rules.errors import RuleError, from_validation
from companion.village.rules.karla import default_choice
from companion.village.scoring import check_override
from companion.village.setup import VillageSetup, component_problems
from companion.village.state import VillageState

COMMAND: TypeAdapter[Command] = TypeAdapter(Command)
# Every command model (the members of the Command union), for isinstance.
COMMAND_MODELS: tuple[type[BaseModel], ...] = get_args(get_args(Command)[0])
DrawMode = Literal["app", "manual"]
KarlaPolicy = Literal["ask", "auto"]


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


# Event types that stored logs may hold and still fold, but that a new command may not use.
LEGACY_COMMANDS = {"spend_next_start_marker": "next_start_marker_coin"}


RawCommand = Mapping[str, object]  # a command from outside: a stored log, a share client


def validate_command(command: Command | RawCommand | object) -> Command:
    """The boundary: a command from outside (a dict) checked into its command model, once.
    A model built in this process (a screen's) was checked when it was built and passes
    as it is. Anything malformed — not an object, an unknown type, a wrong field — is a
    RuleError naming the field (the command's own type tag is left out of the path),
    never another error."""
    if isinstance(command, COMMAND_MODELS):
        model = cast(Command, command)
        if model.type in LEGACY_COMMANDS:
            _refuse_legacy(model.type)
        return model
    if isinstance(command, BaseModel):  # a chance event or another model: not a command
        command = command.model_dump(mode="json")
    if not isinstance(command, Mapping):
        raise RuleError("type", "a command is an object with a type, e.g. {\"type\": "
                        "\"end_turn\"}", key="rule.command_not_object")
    kind = command.get("type")
    if "type" not in command:
        raise RuleError("type", "is required, e.g. {\"type\": \"end_turn\"}",
                        key="rule.command_type_required")
    if not isinstance(kind, str):  # a list or an object would not even be hashable
        raise RuleError("type", "must be text naming a command, e.g. \"end_turn\"",
                        key="rule.command_type_text")
    if kind in LEGACY_COMMANDS:
        _refuse_legacy(kind)
    try:
        return COMMAND.validate_python(dict(command))
    except ValidationError as exc:
        if exc.errors()[0].get("type") in ("union_tag_invalid", "union_tag_not_found"):
            raise RuleError("type", f"unknown command {kind!r}",
                            key="rule.unknown_command", params={"kind": kind}) from exc
        raise from_validation(exc, tag=kind) from exc


def _refuse_legacy(kind: str) -> None:
    raise RuleError("type", f"{kind!r} is kept for old logs only; use "
                    f"{LEGACY_COMMANDS[kind]!r}",
                    key="rule.legacy_command",
                    params={"kind": kind, "use": LEGACY_COMMANDS[kind]})


Body = Command | chance.ChanceEvent  # what the log stores: a command or a chance event


def parse_body(raw: Mapping[str, object], prefix: str = "") -> Body:
    """The boundary for stored events: a stored body (a stored log, a redo stack) into its
    model, once. A malformed one is a RuleError naming the field (after `prefix`)."""
    # The union's tag, left out of the field path: a chance event's draw, a command's type.
    tag = raw.get("draw") if raw.get("type") == "chance" else raw.get("type")
    try:
        if raw.get("type") == "chance":
            return chance.CHANCE.validate_python(raw)
        return COMMAND.validate_python(raw)
    except ValidationError as exc:
        raise from_validation(exc, prefix=prefix,
                              tag=tag if isinstance(tag, str) else None) from exc


class Outcome(BaseModel):
    """What one accepted user action did: its events and the table instructions."""

    events: list[JsonObject]
    notes: list[str]  # English
    note_data: list[JsonObject] = []  # the same notes as {"key", "params"} for any language


def event_group(event: Mapping[str, Any]) -> int:
    """Village events carry the number of the action (group) that recorded them."""
    return int(event["group"])


@dataclass(frozen=True)
class SessionSnapshot:
    log: LogSnapshot
    state: VillageState
    notes: list[str]
    note_data: list[JsonObject]
    draw_mode: DrawMode
    karla_policy: KarlaPolicy

    @property
    def events(self) -> list[JsonObject]:
        return list(self.log.events)

    @property
    def redo(self) -> list[JsonObject]:
        return list(self.log.redo)


class VillageSession:
    def __init__(self, setup: VillageSetup, comp: ComponentData,
                 events: list[JsonObject] | None = None,
                 redo: list[JsonObject] | None = None, *,
                 draw_mode: DrawMode = "app", karla_policy: KarlaPolicy = "ask",
                 clock: Callable[[], str] = utc_now) -> None:
        problems = component_problems(setup, comp)
        if problems:
            first = problems[0]
            raise RuleError(first.field, first.message, key=first.key, params=first.params)
        self.setup = setup
        self.comp = comp
        self.draw_mode: DrawMode = draw_mode
        self.karla_policy: KarlaPolicy = karla_policy
        self.clock = clock
        self._log = EventLog(redo=redo or [], group_of=event_group)
        self.last_notes: list[str] = []
        self.last_note_data: list[JsonObject] = []
        # The newest engine version that saved this session: set by the service when it
        # opens a stored one; None for a session this build created.
        self.engine_written: int | None = None
        # The stored version this copy extends (compare-and-append); set by the service.
        self.saved_version = 0
        # The table's done marks as stored in the header (companion.village.table_marks):
        # no game event, so undo/redo and the fold never touch them; set by the service.
        self.table_marks: JsonObject = {}
        self.state = start_state(setup, comp)
        if events:
            last_group: int | None = None
            for ev in events:
                notes = apply_event(self.state, comp, parse_body(ev["body"]))
                # A reopened game (a restarted server, another day) keeps what its last
                # action asked of the table, as the session that made it did.
                if event_group(ev) != last_group:
                    last_group = event_group(ev)
                    self.last_notes, self.last_note_data = [], []
                self.last_notes += notes
                self.last_note_data += self.state.note_data
            self._log.record([dict(e) for e in events], keep_redo=True)
        else:
            opening: list[Event] = []  # group 0: the draws the setup itself calls for
            self.last_notes = self._settle(0, self.state, opening)
            self._log.record(opening, keep_redo=True)

    # ---- construction ----------------------------------------------------------------
    @classmethod
    def new(cls, setup: VillageSetup, corrections: JsonObject | None = None,
            **kwargs: Any) -> VillageSession:
        return cls(setup, load_components(setup.edition, corrections), **kwargs)

    # ---- reading ---------------------------------------------------------------------
    # `events` and `redo_stack` are the log's own lists (front of redo_stack = next to
    # redo); assigning one replaces it, as a store loading a stored stack does.
    @property
    def events(self) -> list[JsonObject]:
        return self._log.events

    @events.setter
    def events(self, events: list[JsonObject]) -> None:
        self._log.events = list(events)

    @property
    def redo_stack(self) -> list[JsonObject]:
        return self._log.redo

    @redo_stack.setter
    def redo_stack(self, redo: list[JsonObject]) -> None:
        self._log.redo = list(redo)

    @property
    def group(self) -> int:
        return self._log.group

    @property
    def rules_version(self) -> int:
        """The rules this game plays by: interpretations.CURRENT_RULES, or 1 for a game
        started before the rulebook fixes of issue 10 (it keeps the rules it started with;
        `state.follows_older_rules` says so)."""
        return self.state.rules_version

    @property
    def readings(self) -> dict[str, str]:
        """Every interpretations.json reading in effect in this game: key -> option."""
        return dict(self.state.readings)

    def can_undo(self) -> bool:
        return self._log.can_undo

    def can_redo(self) -> bool:
        return self._log.can_redo

    # ---- acting ----------------------------------------------------------------------
    # Every entry point refuses malformed input with a RuleError naming the field and
    # leaves the state, the log and the redo stack as they were: the input's shape is
    # checked first (validate_command, chance.check_outcome), the rules then read only
    # well-typed values.
    def execute(self, command: Command | RawCommand) -> Outcome:
        """Apply a command; raises RuleError. A dict (a command from outside: a share
        client, a test) is validated into its model here, once."""
        cmd = validate_command(command)
        if isinstance(cmd, OverrideScore):  # entered now, not replayed: within the game's
            check_override(self.comp, cmd)  # bounds, or kept on purpose
        return self._act(cmd)

    def enter_draw(self, outcome: chance.Outcome | Mapping[str, object]) -> Outcome:
        """The players drew physically: record what came out as the pending draw."""
        if not self.state.pending or self.state.pending[0].kind != "chance":
            raise RuleError("draw", "no draw is waiting", key="rule.no_draw_waiting")
        draw = str(self.state.pending[0].draw)
        checked = chance.check_outcome(draw, outcome)
        return self._act(chance.chance_event(draw, checked, "manual"))

    def redraw(self, draw: Literal["bag", "mass"],
               outcome: chance.Outcome | Mapping[str, object] | None = None) -> Outcome:
        if not isinstance(draw, str) or draw not in chance.REDRAWABLE:
            raise RuleError("draw", f"only {' or '.join(chance.REDRAWABLE)} can be redrawn, "
                            f"not {draw!r}",
                            key="rule.not_redrawable",
                            params={"options": " or ".join(chance.REDRAWABLE), "value": draw})
        if outcome is None:
            trial = self.state.clone()
            ctx = Ctx(trial, self.comp)
            chance._revert_for_redraw(ctx, draw)
            rng = chance.rng_for(self.setup.seed, len(self.events), draw)
            if draw == "bag":
                from companion.village.rules.bag import draw_placements

                checked: chance.Outcome = chance.BagOutcome(
                    placements=draw_placements(ctx, rng))
            else:
                from companion.village.rules.mass import draw_items, draw_room

                checked = chance.MassOutcome(items=draw_items(ctx, rng, draw_room(ctx)))
            source: Literal["app", "manual"] = "app"
        else:
            checked = chance.check_outcome(draw, outcome)
            source = "manual"
        return self._act(chance.chance_event(draw, checked, source, redraw=True))

    def _act(self, body: Body) -> Outcome:
        """Apply one checked command or draw. A rule that refuses raises RuleError; any other
        exception is a bug and surfaces as EngineFault (never as a refusal)."""
        # Work on a copy and swap it in at the end: a reader never sees a half-applied
        # state, and a refused command leaves everything as it was.
        work = self.state.clone()
        group = self.group + 1
        recorded: list[Event] = []  # the action's group, logged only once it all applies
        note_data_before = self.last_note_data
        self.last_note_data = []
        try:
            notes = apply_event(work, self.comp, body)
            self.last_note_data += work.note_data
            self._record(body, group, recorded)
            more = self._settle(group, work, recorded)
        except RuleError:
            self.last_note_data = note_data_before
            raise
        except Exception as exc:  # a bug, not a refusal: nothing half-applied is kept
            self.last_note_data = note_data_before
            raise EngineFault(str(getattr(body, "type", None) or getattr(body, "draw", "?")),
                              exc) from exc
        self.state = work
        self._log.record(recorded)  # a new action: clears the redo stack
        self.last_notes = notes + more
        return Outcome(events=list(recorded), notes=self.last_notes,
                       note_data=list(self.last_note_data))

    def _next_seq(self, recorded: list[Event]) -> int:
        """The log position of the next event (also what seeds its draw)."""
        return len(self._log) + len(recorded)

    def _record(self, body: Body, group: int, recorded: list[Event]) -> None:
        recorded.append({"seq": self._next_seq(recorded), "group": group, "at": self.clock(),
                         "body": body.model_dump(mode="json")})

    def _settle(self, group: int, state: VillageState, recorded: list[Event]) -> list[str]:
        """Resolve what the app resolves by itself: its own draws and, if the player lets
        it, Karla's cube choices. Stops at anything a person must decide or enter. The
        events go to `recorded`; returns the notes."""
        notes: list[str] = []
        while state.pending:
            pending = state.pending[0]
            if pending.kind == "chance" and self.draw_mode == "app":
                ctx = Ctx(state, self.comp)
                draw = str(pending.draw)
                rng = chance.rng_for(self.setup.seed, self._next_seq(recorded), draw)
                body: Body = chance.chance_event(draw, chance.app_outcome(ctx, pending, rng),
                                                 "app")
            elif pending.kind == "karla_cube" and self.karla_policy == "auto":
                options = pending.detail.options
                body = KarlaChooseCube(space=str(pending.detail.space),
                                       colour=default_choice(options))
            else:
                break
            notes += apply_event(state, self.comp, body)
            self.last_note_data += state.note_data
            self._record(body, group, recorded)
        return notes

    # ---- rolling back a change the store refused --------------------------------------
    def snapshot(self) -> SessionSnapshot:
        """What an action may change. States are swapped, never mutated in place, so
        holding the current one is enough."""
        return SessionSnapshot(self._log.snapshot(), self.state,
                               list(self.last_notes), list(self.last_note_data),
                               self.draw_mode, self.karla_policy)

    def restore(self, snap: SessionSnapshot) -> None:
        self._log.restore(snap.log)
        (self.state, self.last_notes, self.last_note_data, self.draw_mode,
         self.karla_policy) = (snap.state, list(snap.notes), list(snap.note_data),
                               snap.draw_mode, snap.karla_policy)

    # ---- undo / redo -----------------------------------------------------------------
    def _fold(self, events: list[JsonObject]) -> VillageState:
        state = start_state(self.setup, self.comp)
        for ev in events:
            apply_event(state, self.comp, parse_body(ev["body"]))
        return state

    def undo(self) -> bool:
        if not self.can_undo():
            return False
        self._cut_after(self.group - 1)
        return True

    def _cut_after(self, group: int) -> int:
        """Move every event of a group after `group` onto the redo stack; returns how many
        groups moved. The state is refolded before anything changes (so a failing fold
        changes nothing)."""
        kept = self._log.through(group)
        if len(kept) == len(self._log):
            return 0
        state = self._fold(kept)
        moved = self._log.cut_after(group)
        self.state = state
        self.last_notes = []
        self.last_note_data = []
        return moved

    def redo(self) -> bool:
        batch = self._log.next_redo()
        if not batch:
            return False
        notes: list[str] = []
        note_data: list[JsonObject] = []
        work = self.state.clone()
        for ev in batch:  # on a copy: nothing changes unless every event applies
            body = parse_body(ev["body"], prefix="redo")  # a stack no fold has checked
            notes += apply_event(work, self.comp, body)
            note_data += work.note_data
        self._log.redo_next()  # exactly as recorded
        self.state = work
        self.last_notes = notes
        self.last_note_data = note_data
        return True

    def go_back_to(self, group: int) -> int:
        """Undo every action after `group` (0 = back to the start); returns how many were
        undone."""
        return self._cut_after(self._log.check_group(group, RuleError))
