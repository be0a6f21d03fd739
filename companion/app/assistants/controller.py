"""One screen's handle on an open tally: edits run and are saved on the store thread,
and only a saved edit is confirmed (haptic) and shown.

    outcome = await controller.apply(AdjustField(player=0, field="money", delta=1))
    if not outcome.ok: show outcome.problems next to the field they name
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.app.assistants.hub import HUB
from companion.app.shared_sessions import SharedHandle
from companion.scoring.contract import ScoreSheet
from companion.store.base import SessionStore
from companion.tally.api import Edit, EditRejected, Problem, TallyService, TallySession, built

if TYPE_CHECKING:
    from companion.app.context import AppContext

@dataclass(frozen=True)
class Outcome:
    ok: bool
    problems: list[Problem] = field(default_factory=list)


class TallyController(SharedHandle[TallySession[Any]]):
    @classmethod
    async def open(cls, ctx: AppContext, session_id: str) -> TallyController:
        opened = await ctx.store.run(lambda s: HUB.open(s, session_id))
        return cls(ctx, opened)

    @staticmethod
    async def create(ctx: AppContext, game: str, names: list[str]) -> str:
        """Create and save a session (EditRejected names the bad player field)."""

        def work(store: SessionStore) -> str:
            session_id, session = TallyService(store).create(game, names)
            HUB.adopt(session_id, session)
            return session_id

        return await ctx.store.run(work)

    # ---- reading -----------------------------------------------------------------------
    @property
    def state(self) -> Any:
        return self.session.state

    def sheet(self) -> ScoreSheet | EditRejected:
        """The final sheet for the current numbers, or what is still missing."""
        try:
            return self.session.sheet()
        except EditRejected as exc:
            return exc

    # ---- acting ------------------------------------------------------------------------
    async def apply(self, edit: Edit | Callable[[], Edit]) -> Outcome:
        """Apply one edit model; given a builder instead, a value the model refuses (a
        field the user typed) comes back as the problem naming that field, unsaved."""
        try:
            model = built(edit)
        except EditRejected as exc:
            return Outcome(ok=False, problems=list(exc.problems))
        return await self._run(lambda svc, s: svc.apply(self.session_id, s, model))

    async def finish(self) -> Outcome:
        return await self._run(lambda svc, s: svc.finish(self.session_id, s))

    async def undo(self) -> Outcome:
        return await self._run(lambda svc, s: svc.undo(self.session_id, s))

    async def redo(self) -> Outcome:
        return await self._run(lambda svc, s: svc.redo(self.session_id, s))

    async def _run(self, work: Callable[[TallyService, TallySession[Any]], object]) -> Outcome:
        """Apply + save on the store thread (SharedHandle.run); a refusal's problems come
        back for the screen to show beside the fields they name."""
        session = self.session
        ran = await self.run(lambda store: work(TallyService(store), session))
        problems = list(ran.refusal.problems) if ran.refusal is not None else []
        return Outcome(ok=ran.done, problems=problems)
