"""Small City's next step ("Next: Build", the next round, the final sheet) sits in the
bottom bar above the sections, so it is in view at 360x800 whatever the section's length
(it used to end the round section, under the bar until scrolled to). The browser test
tests/e2e/test_assistant_keys.py measures its place."""

from __future__ import annotations

import flet as ft
from flet.controls.base_control import BaseControl

from companion.app.assistants.play import BAR_HEIGHT, FOOTER_HEIGHT, FOOTER_SPACING

from ..conftest import ProblemStore
from ..harness import AppHarness
from .helpers import edits, section, start, tap


def _ids(app: AppHarness, root: BaseControl) -> set[str]:
    return {str(c.identifier) for c, _ in app.walk(root)
            if isinstance(c, ft.Semantics) and c.identifier}


def test_the_next_step_is_in_the_bottom_bar_not_the_scrolled_body(
        store: ProblemStore) -> None:
    with AppHarness(store) as app:
        sid = start(app, "Small City", "Ann", "Bo")
        view = app.page.views[-1]
        bar = view.bottom_appbar
        assert bar is not None
        in_bar = _ids(app, bar)
        assert {"next-phase", "section-round"} <= in_bar
        body = {i for c in view.controls for i in _ids(app, c)}
        assert "next-phase" not in body  # never at the end of the long round section
        assert bar.height == BAR_HEIGHT + FOOTER_HEIGHT + FOOTER_SPACING
        app.click("Next: Build")
        assert edits(store, sid)[-1] == {"type": "step", "round": 1, "phase": 2}
        section(app, "players")  # other sections keep the plain bar
        assert "next-phase" not in _ids(app, bar) and bar.height == BAR_HEIGHT
        section(app, "round")
        tap(app, "next-phase")
        assert edits(store, sid)[-1] == {"type": "step", "round": 1, "phase": 3}
