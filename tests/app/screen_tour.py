"""A tour of every screen of the app in the headless harness (issue 13).

Each `tour_*` function opens the app in one language and calls `look(app, where)` at
every screen and every state of it worth seeing: the Village table (multiplayer and
solo, at a round start with its instructions, mid-turn, with a pending question and
its banner, after the game ended), the player panel's tabs and forms, market, mass,
chronicle and final scoring (with its value dialog), the log, the rules, the three
assistants (setup, every section, the finish question, finished), Home and Settings,
the wizard steps, and table mode (the host's share screen, a phone's seat screen, the
"left" screen). History has its own tours in test_history_screens.py and
test_history_replay.py.

`test_every_screen.py` runs the tour with the tap target check (tap_targets.py) in
English and with the English-text check (test_no_english.py) in the other languages.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Literal

import flet as ft

from companion.app.routes import build_routes
from companion.app.shell import build_main
from companion.app.store_access import AsyncStore
from companion.app.village.hub import HUB
from companion.store.memory import MemoryStore
from companion.tally.service import TallyService
from companion.village.autoplay import play_step
from companion.village.commands import Adjust, EndTurn, SpendTime, TakeCube
from companion.village.service import VillageService
from companion.village.setup import PlayerSetup, VillageSetup
from tests.history.helpers import finished_village

from .harness import AppHarness, FakeClient, HarnessError

Look = Callable[[AppHarness, str], None]
LOCALES = {"en": "en-US", "ko": "ko-KR", "de": "de-DE", "zh_Hant": "zh-TW"}
NAMES = [("Ann", "red"), ("Bo", "blue"), ("Cy", "white")]


# ---- opening and tapping, without words (every language) --------------------------------


@contextmanager
def opened(store: MemoryStore, lang: str, route: str = "/") -> Iterator[AppHarness]:
    with AppHarness(store, client=FakeClient(locales=(LOCALES[lang],),
                                             initial_route=route)) as app:
        yield app


def tap_id(app: AppHarness, identifier: str) -> None:
    """Tap the control marked `identifier`: the first tappable one inside it, or the
    nearest tappable one around it."""
    hits = app.find_all(identifier=identifier)
    if len(hits) != 1:
        raise HarnessError(f"expected one {identifier}, found {len(hits)}")
    root, ancestors = hits[0]
    inside = [c for c, _ in app.walk(root, visible_only=True)]
    for control in [*inside, *reversed(ancestors)]:
        if getattr(control, "on_click", None) is not None:
            app.dispatch(control, "click")
            return
    raise HarnessError(f"nothing tappable at {identifier}")


def tap_in(app: AppHarness, identifier: str, kind: type) -> None:
    """Tap the first `kind` control under the one marked `identifier`."""
    root = app.find(identifier=identifier)
    for control, _ in app.walk(root, visible_only=True):
        if isinstance(control, kind) and not getattr(control, "disabled", False):
            app.dispatch(control, "click")
            return
    raise HarnessError(f"no {kind.__name__} under {identifier}")


def pick(app: AppHarness, key: str) -> None:
    """Tap a choice chip (the client flips `selected`, then sends the select event)."""
    chip = app.find(key=key)
    assert app.session is not None
    app.session.apply_patch(chip._i, {"selected": not getattr(chip, "selected", False)})
    app.dispatch(chip, "select", "true")


def open_dialogs(app: AppHarness) -> list[ft.AlertDialog]:
    return [d for d in app.page._dialogs.controls
            if isinstance(d, ft.AlertDialog) and d.open]


def confirm_dialog(app: AppHarness) -> None:
    """The confirming (filled) button of the open question."""
    [dialog] = open_dialogs(app)
    buttons = [c for c, _ in app.walk(dialog) if isinstance(c, ft.FilledButton)]
    app.dispatch(buttons[-1], "click")


def identifiers(app: AppHarness, prefix: str) -> list[str]:
    return [str(c.identifier) for root in app.screen_roots()
            for c, _ in app.walk(root, visible_only=True)
            if isinstance(c, ft.Semantics) and (c.identifier or "").startswith(prefix)]


# ---- games -----------------------------------------------------------------------------


def village_game(store: MemoryStore, *, solo: bool = False, players: int = 2,
                 draw_mode: Literal["app", "manual"] = "app", seed: int = 1) -> str:
    people = NAMES[:1] if solo else NAMES[:players]
    setup = VillageSetup(players=[PlayerSetup(name=n, colour=c) for n, c in people],
                         solo=solo, karla_colour="purple" if solo else None,
                         start_player=0, compensation=False, seed=seed)
    sid, _ = VillageService(store).create(setup, draw_mode=draw_mode, karla_policy="ask")
    return sid


def first_cube_id(store: MemoryStore, sid: str) -> str:
    state = VillageService(store).open(sid).state
    opened_game = HUB.get(sid)
    if opened_game is not None:
        state = opened_game.session.state
    for space, cubes in state.spaces.items():
        if space == "market" or not cubes:
            continue
        ordered = sorted(cubes, key=lambda c: (c == "plague", c))
        colour = next((c for c in ordered if c != "plague"), None)
        if colour is not None:
            return f"cube-{space}-{colour}-{ordered.index(colour)}"
    raise AssertionError("no cube on the board")


def played(store: MemoryStore, sid: str, steps: int, seed: int = 7) -> None:
    svc = VillageService(store)
    session = svc.open(sid)
    rng = random.Random(seed)
    for _ in range(steps):
        play_step(session, rng)
    svc.store.replace_log(sid, session.events, session.redo_stack)


def to_round(store: MemoryStore, sid: str, round_: int, seed: int = 3) -> None:
    """Random accepted moves until round `round_` begins (the round before has ended)."""
    svc = VillageService(store)
    session = svc.open(sid)
    rng = random.Random(seed)
    while session.state.round < round_:
        play_step(session, rng)
    svc.store.replace_log(sid, session.events, session.redo_stack)


def owe_a_death(store: MemoryStore, sid: str) -> None:
    """The current player took a cube, spent 12 time (the quill passes), ended the turn:
    the death waits for an answer."""
    svc = VillageService(store)
    session = svc.open(sid)
    state = session.state
    space, colour = next((s, c[0]) for s, c in state.spaces.items()
                         if c and s != "market" and c[0] != "plague")
    svc.execute(sid, session, TakeCube(space=space, colour=colour))
    svc.execute(sid, session, SpendTime(player=state.current, amount=12))
    svc.execute(sid, session, EndTurn())
    assert session.state.pending and session.state.pending[0].kind == "death"


def expand_instructions(app: AppHarness) -> None:
    if not app.find_all(identifier="table-instructions-toggle"):
        return
    toggle = app.find(identifier="table-instructions-toggle")
    if not getattr(toggle, "expanded", False):
        tap_id(app, "table-instructions-toggle")


def tap_icon(app: AppHarness, icon: ft.IconData) -> None:
    """Tap the one button showing `icon`."""
    hits = [c for root in app.screen_roots() for c, _ in app.walk(root, visible_only=True)
            if getattr(c, "on_click", None) is not None and getattr(c, "icon", None) == icon]
    if len(hits) != 1:
        raise HarnessError(f"expected one button with {icon}, found {len(hits)}")
    app.dispatch(hits[0], "click")


def end_turn(app: AppHarness) -> None:
    tap_in(app, "turn-buttons", ft.FilledButton)


# ---- the tours -------------------------------------------------------------------------


def tour_home(lang: str, look: Look) -> None:
    store = MemoryStore()
    village_game(store)
    TallyService(store).create("feudum", ["Di", "Ed"])
    with opened(store, lang) as app:
        look(app, "home")
        [delete] = identifiers(app, "delete-")[:1]
        tap_id(app, delete)
        look(app, "home: delete question")
        [dialog] = open_dialogs(app)
        app.dispatch([c for c, _ in app.walk(dialog) if isinstance(c, ft.TextButton)][0],
                     "click")
        app.set_route("/settings")
        look(app, "settings")
        for route in ("/rules", "/new/village/rules/big-box"):
            app.set_route(route)
            look(app, route)


def tour_wizard(lang: str, look: Look) -> None:
    from .test_no_english import Screens, walk_wizard

    class Seen(Screens):
        def look(self, where: str) -> None:
            look(self.app, where)

    with opened(MemoryStore(), lang) as app:
        seen = Seen(app, lang)
        walk_wizard(app, seen, "/new/village")
        walk_wizard(app, seen, "/new/village-solo")
        walk_wizard(app, seen, "/new/village", before=lambda: tap_id(app, "edition-2011"))


def tour_table(lang: str, look: Look) -> None:
    store = MemoryStore()
    sid = village_game(store, players=3)
    with opened(store, lang, f"/play/village/{sid}") as app:
        look(app, "table: round start")
        expand_instructions(app)
        look(app, "table: round start, instructions open")
        if identifiers(app, "instruction-0-done"):
            tap_id(app, "instruction-0-done")
            look(app, "table: an instruction done")
        tap_id(app, first_cube_id(store, sid))
        look(app, "table: a cube taken")
        end_turn(app)
        look(app, "table: the next turn")
        tap_id(app, "open-log")
        look(app, "log")
    HUB._open.clear()
    dying = village_game(store, seed=2)
    owe_a_death(store, dying)
    with opened(store, lang, f"/play/village/{dying}") as app:
        assert app.find_all(identifier="dialog-death")
        look(app, "table: a death to choose")
        tap_id(app, "dialog-hide")
        look(app, "table: the question hidden (banner)")
    fresh = village_game(store, seed=6)
    with opened(store, lang, f"/play/village/{fresh}") as app:
        tap_icon(app, ft.Icons.SHOPPING_BAG)
        assert app.find_all(identifier="dialog-bag")
        look(app, "table: the bag's contents")
    with opened(store, lang, f"/play/village/{fresh}") as app:
        expand_instructions(app)
        tap_in(app, "round-draw", ft.OutlinedButton)
        assert app.find_all(identifier="form-bag")
        look(app, "table: the round's draw entered again")
    HUB._open.clear()
    well = village_game(store, seed=5)
    svc = VillageService(store)
    session = svc.open(well)
    svc.execute(well, session, Adjust(player=0, field="cubes", key="pink", delta=3))
    with opened(store, lang, f"/play/village/{well}") as app:
        tap_icon(app, ft.Icons.WATER_DROP)
        assert app.find_all(identifier="dialog-well")
        look(app, "table: the well's colour")
    manual = village_game(store, draw_mode="manual", seed=3)
    with opened(store, lang, f"/play/village/{manual}") as app:
        assert app.find_all(identifier="form-bag")
        look(app, "table: the bag draw to enter")
    longer = village_game(store, seed=4)
    played(store, longer, 60)
    with opened(store, lang, f"/play/village/{longer}") as app:
        expand_instructions(app)
        look(app, "table: later in the game")
        app.set_route(f"/play/village/{longer}/log")
        look(app, "log: 60 events")
    ended = village_game(store, players=3, seed=3)
    to_round(store, ended, 2)
    with opened(store, lang, f"/play/village/{ended}/round-end") as app:
        look(app, "round end: the steps")
        tap_id(app, "round-end-step-bonus-done")
        look(app, "round end: a step done")
        tap_id(app, "round-end-to-table")
        look(app, "table: the round end's banner")
    HUB._open.clear()
    done = finished_village(VillageService(store), ["Ann", "Bo"], seed=3)
    with opened(store, lang, f"/play/village/{done}") as app:
        expand_instructions(app)
        look(app, "table: the game ended")
        app.set_route(f"/play/village/{done}/score")
        look(app, "final scoring")
        app.set_route(f"/play/village/{done}/log")
        look(app, "log: a finished game")


def tour_solo(lang: str, look: Look) -> None:
    store = MemoryStore()
    sid = village_game(store, solo=True)
    with opened(store, lang, f"/play/village/{sid}") as app:
        look(app, "solo: round start")
        expand_instructions(app)
        look(app, "solo: instructions open")
        tap_id(app, first_cube_id(store, sid))
        look(app, "solo: a cube taken, Karla due")
        end_turn(app)
        expand_instructions(app)
        look(app, "solo: after Karla's take")
        app.set_route(f"/play/village/{sid}/player/0")
        look(app, "solo: the player panel")
        app.set_route(f"/play/village/{sid}/score")
        look(app, "solo: scoring")
    HUB._open.clear()
    later = village_game(store, solo=True, seed=5)
    played(store, later, 80, seed=5)
    with opened(store, lang, f"/play/village/{later}") as app:
        expand_instructions(app)
        look(app, "solo: later in the game")
    HUB._open.clear()
    done = finished_village(VillageService(store), ["Cy"], seed=4, solo_game=True)
    with opened(store, lang, f"/play/village/{done}") as app:
        look(app, "solo: the game ended")
        app.set_route(f"/play/village/{done}/score")
        look(app, "solo: final scoring")


FORMS = ("harvest", "family", "crafts", "council", "travel", "church")


def tour_panels(lang: str, look: Look) -> None:
    from .village_panels.conftest import acting, at_mass, new_game

    game = acting("crafts", "brown")
    game.session.state.players[0].customers = [2]
    with opened(game.store, lang, game.route("player/0")) as app:
        look(app, "panel: overview")
        app.click(key="tab-family")
        look(app, "panel: family")
        app.click(key="tab-actions")
        for action in FORMS:
            pick(app, f"action-{action}")
            look(app, f"panel: {action} form")
        for panel in ("market", "mass", "chronicle"):
            app.set_route(game.route(panel))
            look(app, f"panel: {panel}")
    HUB._open.clear()
    game = new_game()
    at_mass(game)
    with opened(game.store, lang, f"/play/village/{game.sid}") as app:
        expand_instructions(app)
        look(app, "table: the mass")
        app.set_route(game.route("mass"))
        look(app, "panel: the mass under way")
        app.set_route(game.route("market"))
        look(app, "panel: market after a round")
    HUB._open.clear()
    game = new_game()
    game.session.state.phase = "scoring"  # Position: the final mass is over
    with opened(game.store, lang, game.route("score")) as app:
        look(app, "panel: scoring")
        app.click(key="cell-0-coins")
        assert open_dialogs(app)
        look(app, "panel: a score cell's dialog")
    HUB._open.clear()


ASSISTANT_SECTIONS = {"small-city": ("round", "players", "promises", "final"),
                      "feudum": ("epoch", "dawn", "players", "final"),
                      "villagers": ("round", "market", "players", "final")}


def tour_assistants(lang: str, look: Look) -> None:
    store = MemoryStore()
    with opened(store, lang) as app:
        for game, sections in ASSISTANT_SECTIONS.items():
            app.set_route(f"/new/{game}")
            look(app, f"{game}: setup")
            sid, _ = TallyService(store).create(game, ["Di", "Ed"])
            app.set_route(f"/play/{game}/{sid}")
            for section in sections:
                tap_id(app, f"section-{section}")
                look(app, f"{game}: {section}")
            tap_id(app, "final-finish")
            assert open_dialogs(app)
            look(app, f"{game}: the finish question")
            confirm_dialog(app)
            look(app, f"{game}: finished")
            app.set_route("/")
        look(app, "home with finished assistants")


def tour_table_mode(lang: str, look: Look) -> None:
    from companion.app.table_mode.sharing import TableShare
    from companion.share.registry import ShareRegistry

    from .table_mode.test_members import join

    @contextmanager
    def client(store: MemoryStore, share: TableShare, member_id: str | None,
               route: str = "/") -> Iterator[AppHarness]:
        """The app as table mode serves it, on the host or on a joined phone."""
        astore = AsyncStore(store)
        real = build_main(astore, build_routes(), share=share)

        async def main(page: ft.Page) -> None:
            if member_id is not None:  # what ShareGuard puts on a joined phone
                page.client_user_agent = f"Mozilla/5.0 Phone vc-member/{member_id}"
            await real(page)

        try:
            with AppHarness(main=main, client=FakeClient(
                    locales=(LOCALES[lang],), initial_route=route)) as app:
                yield app
        finally:
            astore.close()

    store = MemoryStore()
    sid = village_game(store)
    share = TableShare(ShareRegistry(), "127.0.0.2", 8550)
    with client(store, share, None, f"/play/village/{sid}") as host:
        look(host, "table mode: the host's table")
        tap_id(host, "open-share")
        look(host, "table mode: the share screen")
        member = join(share, sid)
        share.choose_seat(member, 0)
        host.settle()
        look(host, "table mode: the share screen with a phone")
    other = join(share, sid)
    with client(store, share, other) as phone:
        phone.settle()
        look(phone, "table mode: a phone's seat screen")
        tap_id(phone, "seat-1")
        look(phone, "table mode: a seated phone's panel")
    share.remove(other)
    with client(store, share, other) as phone:
        look(phone, "table mode: a phone that left")
    HUB._open.clear()


TOURS: dict[str, Callable[[str, Look], None]] = {
    "home": tour_home, "wizard": tour_wizard, "table": tour_table, "solo": tour_solo,
    "panels": tour_panels, "assistants": tour_assistants, "table_mode": tour_table_mode}
