"""One client's handle on an open Village session: dispatch commands off the event loop,
save before confirming, translate errors, and re-render every client on a change.

Screens never touch the engine or the store directly:

    ok = await controller.dispatch({"type": "take_cube", "space": "market", "colour": "green"})

`dispatch` returns False (and shows the error naming the field) when the rules refuse.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from companion.app.shared_sessions import OpenShared, SharedHandle
from companion.app.table_mode.acting import acted_by, acting_refusal
from companion.app.village.hub import HUB
from companion.app.village.present import error_text, note_texts
from companion.store.base import ReadOnlyStore, StaleWrite
from companion.village.read import RuleError
from companion.village.service import VillageService
from companion.village.session import Outcome, VillageSession
from companion.village.state import VillageState

if TYPE_CHECKING:
    from companion.app.context import AppContext

logger = logging.getLogger(__name__)


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

    # ---- acting ------------------------------------------------------------------------
    async def dispatch(self, command: dict[str, Any]) -> bool:
        by = acted_by(self.ctx)  # table mode: the seat of the phone that did it
        return await self._run(lambda svc, s: svc.execute(self.session_id, s, command, by=by))

    async def enter_draw(self, outcome: dict[str, Any]) -> bool:
        by = acted_by(self.ctx)
        return await self._run(lambda svc, s: svc.enter_draw(self.session_id, s, outcome,
                                                             by=by))

    async def redraw(self, draw: Literal["bag", "mass"],
                     outcome: dict[str, Any] | None = None) -> bool:
        by = acted_by(self.ctx)
        return await self._run(lambda svc, s: svc.redraw(self.session_id, s, draw, outcome,
                                                         by=by))

    async def undo(self) -> bool:
        return await self._run(lambda svc, s: svc.undo(self.session_id, s))

    async def redo(self) -> bool:
        return await self._run(lambda svc, s: svc.redo(self.session_id, s))

    async def go_back_to(self, group: int) -> bool:
        return await self._run(lambda svc, s: svc.go_back_to(self.session_id, s, group) > 0)

    async def set_prefs(self, **prefs: Any) -> bool:
        return await self._run(lambda svc, s: svc.set_prefs(self.session_id, s, **prefs))

    async def _run(self, work: Callable[[VillageService, VillageSession], Any]) -> bool:
        """Apply + save on the store thread; only then confirm (haptic) and re-render."""
        if self.busy:
            return False
        refusal = acting_refusal(self.ctx)  # table mode: a watching phone may not act
        if refusal is not None:
            self.ctx.toast(refusal)
            return False
        self.busy = True
        session = self.session
        try:
            result = await self.ctx.store.run(
                lambda store: work(VillageService(store), session))
        except RuleError as exc:
            self.ctx.toast(error_text(self.ctx, exc))
            return False
        except StaleWrite as exc:  # another window or process saved to this game first
            await self.reload_after(exc)  # still busy: no tap lands on the stale copy
            return False
        except Exception as exc:  # a failed save must be seen, never swallowed
            if not isinstance(exc, ReadOnlyStore):
                logger.exception("saving the game failed")
            self.ctx.toast(self.ctx.failure_text(exc))
            return False
        finally:
            self.busy = False
        if isinstance(result, Outcome):
            self.last_notes = note_texts(self.ctx, result.note_data)
        elif result is not False:
            self.last_notes = []
        self.ctx.device.haptic()
        self.opened.notify()
        return result is not False

