"""Server time per tap on the Village table, headless (no browser): not a test.

    .venv/bin/python -m tests.app.village_table.tap_server_bench [--rounds N] [--profile]
                                                                [--ab] [--clients M]

The real app over a TinyDB store in a temporary folder (as the server runs it), driven
by the headless harness. Each round: a cube tap, End turn, two undos (back to the start),
then a counter tap on the current player's panel (grain +1, then -1). Per tap kind it
prints the server's reply time (the event reaching the session to the first message sent
back, what the browser waits for) and the time until the app is idle, as median / p95 in
ms; the event loop thread's CPU time per tap; the store thread's time (wall, CPU) for
the tap's save; and the messages and bytes sent per tap (messages sent later than
REPLY_WINDOW_S after the first, the undo's delayed toast, are counted apart as "later").
`--profile` prints cProfile's top functions of the event loop's thread per tap kind and
of the store thread. `--ab` alternates rounds with the panels as they were before
issue 23 (body rebuilt, whole page diffed), so both meet the same machine load.
`--ab-parts` alternates rounds with the table's whole view diffed on every change
(`view.update()`) against only its changed parts (kit/changed_parts.py).
`--clients M` opens the game on M clients (table mode: M phones on one game, each
re-rendered and diffed on every change); the CPU, messages and bytes are then those of
all M together (the CPU includes the harness waiting for each client to be idle, and
End turn's M scroll round trips), the reply time the tapping client's.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import io
import os
import pstats
import statistics
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.app.village.hub import HUB
from companion.store.tinydb_store import TinyDBStore
from companion.village.service import VillageService
from companion.village.setup import PlayerSetup, VillageSetup

from ..harness import AppHarness, FakeClient
from .conftest import find_id, village_only_routes

REPLY_WINDOW_S = 0.1  # the undo's message follows its change by 0.12 s
KINDS = ("cube tap", "end turn", "undo", "counter")


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


class Meter:
    def __init__(self, app: AppHarness, profile: bool,
                 others: list[AppHarness] | None = None) -> None:
        self.app = app
        self.others = others or []  # more clients on the same game (table mode)
        self.reply: dict[str, list[float]] = defaultdict(list)
        self.idle: dict[str, list[float]] = defaultdict(list)
        self.messages: dict[str, list[int]] = defaultdict(list)
        self.size: dict[str, list[int]] = defaultdict(list)
        self.later: dict[str, list[int]] = defaultdict(list)
        self.cpu: dict[str, list[float]] = defaultdict(list)
        self.stamps: list[float] = []
        self.profile = profile
        self.loop_profiles: dict[str, cProfile.Profile] = {}
        self.store_profile = cProfile.Profile() if profile else None
        self.measuring = False
        conn = app.conn
        send = conn.send_message

        def stamped(message: object) -> None:
            self.stamps.append(time.perf_counter())
            send(message)  # type: ignore[arg-type]

        conn.send_message = stamped  # type: ignore[method-assign]
        self.store_wall: dict[str, list[float]] = defaultdict(list)
        self.store_cpu: dict[str, list[float]] = defaultdict(list)
        self._store_times: list[tuple[float, float]] = []
        astore = app._astore
        if astore is not None:
            run_on_store = astore.run

            async def timed(work: Callable[[Any], Any]) -> Any:
                def measured(store: Any) -> Any:
                    wall, cpu = time.perf_counter(), time.thread_time()
                    try:
                        return work(store)
                    finally:
                        self._store_times.append((time.perf_counter() - wall,
                                                  time.thread_time() - cpu))
                return await run_on_store(measured)

            astore.run = timed  # type: ignore[method-assign]

    def _store_thread(self, on: bool) -> None:
        profile = self.store_profile
        astore = self.app._astore
        if profile is None or astore is None:
            return
        astore.submit(lambda _s: profile.enable() if on else profile.disable()).result()

    variant = ""  # "before " / "after " in an A/B run

    def tap(self, kind: str, identifier: str | None = None, *, key: str | None = None,
            text: str | None = None) -> None:
        """Tap the first tappable control under `identifier` (showing `text`, if given),
        or the control whose key is `key`."""
        app = self.app
        if key is not None:
            control = app.find(key=key)
        else:
            root = find_id(app, identifier or "")
            control = next(c for c, _ in app.walk(root, visible_only=True)
                           if getattr(c, "on_click", None) is not None
                           and (text is None or text in app.own_texts(c)))
        frames = len(app.conn.frames)
        other_frames = [len(o.conn.frames) for o in self.others]
        self.stamps.clear()
        self._store_times.clear()
        if self.measuring:
            self._store_thread(True)
            if self.profile:
                self.loop_profiles.setdefault(kind, cProfile.Profile()).enable()
        start, cpu = time.perf_counter(), time.thread_time()
        # What the harness's dispatch does, without its check that the control is shown.
        assert app.session is not None
        session = app.session

        async def event() -> None:
            await session.dispatch_event(control._i, "click", None)

        app._run(event())
        app.settle()  # not strict: its check walks the whole tree (harness time)
        for other in self.others:  # their listeners ran on this thread; their tasks now
            other.settle()
        done, cpu = time.perf_counter(), time.thread_time() - cpu
        if self.measuring and self.profile:
            self.loop_profiles[kind].disable()
            self._store_thread(False)
        if not self.measuring:
            return
        kind = self.variant + kind
        sent = app.conn.frames[frames:]
        stamps = list(self.stamps)
        reply = [i for i, at in enumerate(stamps) if at - stamps[0] <= REPLY_WINDOW_S]
        self.reply[kind].append(((stamps[0] - start) if stamps else done - start) * 1000)
        self.idle[kind].append((min(done, stamps[-1] if stamps else done) - start) * 1000)
        theirs = [frame for other, before in zip(self.others, other_frames, strict=True)
                  for frame in other.conn.frames[before:]]  # (the change only: no toast)
        self.messages[kind].append(len(reply) + len(theirs))
        self.size[kind].append(sum(len(sent[i]) for i in reply if i < len(sent))
                               + sum(len(frame) for frame in theirs))
        self.later[kind].append(len(sent) - len(reply))
        self.cpu[kind].append(cpu * 1000)
        self.store_wall[kind].append(sum(w for w, _ in self._store_times) * 1000)
        self.store_cpu[kind].append(sum(c for _, c in self._store_times) * 1000)

    def report(self) -> list[str]:
        lines = [f"{'tap':16} {'reply p50':>9} {'p95':>6} {'idle p50':>8} {'p95':>6} "
                 f"{'cpu p50':>7} {'p95':>6} {'store':>6} {'cpu':>5} {'msgs':>5} "
                 f"{'bytes p50':>9} {'max':>6} {'later':>5} {'n':>4}"]
        for kind in [v + k for k in KINDS for v in ("", "before ", "after ")]:
            if not self.reply[kind]:
                continue
            lines.append(
                f"{kind:16} {statistics.median(self.reply[kind]):9.1f} "
                f"{_p95(self.reply[kind]):6.1f} {statistics.median(self.idle[kind]):8.1f} "
                f"{_p95(self.idle[kind]):6.1f} {statistics.median(self.cpu[kind]):7.1f} "
                f"{_p95(self.cpu[kind]):6.1f} {statistics.median(self.store_wall[kind]):6.1f} "
                f"{statistics.median(self.store_cpu[kind]):5.1f} "
                f"{statistics.median(self.messages[kind]):5.1f} "
                f"{statistics.median(self.size[kind]):9.0f} {max(self.size[kind]):6d} "
                f"{statistics.median(self.later[kind]):5.1f} {len(self.reply[kind]):4d}")
        return lines

    def profiles(self, top: int) -> list[str]:
        out: list[str] = []
        for name, profile in [*((f"event loop, {kind}", p)
                                for kind, p in self.loop_profiles.items()),
                              ("store thread", self.store_profile)]:
            if profile is None:
                continue
            buffer = io.StringIO()
            pstats.Stats(profile, stream=buffer).sort_stats("cumulative").print_stats(top)
            out += [f"---- {name} (cumulative) ----", buffer.getvalue()]
            if name.startswith("event loop"):
                continue
            buffer = io.StringIO()
            pstats.Stats(profile, stream=buffer).sort_stats("tottime").print_stats(top)
            out += [f"---- {name} (own time) ----", buffer.getvalue()]
        return out


def seed(store: TinyDBStore) -> str:
    setup = VillageSetup(players=[PlayerSetup(name="Ann", colour="red"),
                                  PlayerSetup(name="Bo", colour="blue")],
                         start_player=0, seed=7)
    session_id, _ = VillageService(store).create(setup)
    return session_id


def a_cube(sid: str) -> str:
    """A cube the current player may take (not the market's, not a plague cube)."""
    handle = HUB.get(sid)
    assert handle is not None
    spaces = handle.session.state.spaces
    for space, cubes in spaces.items():
        if space == "market":
            continue
        ordered = sorted(cubes, key=lambda c: (c == "plague", c))
        for i, colour in enumerate(ordered):
            if colour != "plague":
                return f"cube-{space}-{colour}-{i}"
    raise RuntimeError("no cube")


def baseline(on: bool) -> None:
    """Switch this process back to the code before the tap work (for --ab): panels
    rebuild their body and update the whole page."""
    from companion.app.village.panel.base import PanelScreen
    from companion.app.village.panel.player_screen import PlayerScreen
    from companion.app.village.table.base import SessionScreen

    PlayerScreen.reconciles = not on
    if on:
        PanelScreen.update_page = SessionScreen.update_page  # type: ignore[method-assign]
    else:
        PanelScreen.update_page = NEW_UPDATE  # type: ignore[method-assign]


def whole_view(on: bool) -> None:
    """Switch the table back to diffing its whole view on every change (--ab-parts)."""
    from flet.controls.base_control import BaseControl

    from companion.app.kit.changed_parts import update_changed
    from companion.app.village.table import screen

    def whole(view: BaseControl) -> None:
        view.update()

    screen.update_changed = whole if on else update_changed  # type: ignore[assignment]


def _new_update() -> Callable[..., None]:
    from companion.app.village.panel.base import PanelScreen
    return PanelScreen.update_page


NEW_UPDATE = _new_update()


def run(rounds: int, warmup: int, profile: bool, top: int, ab: bool = False,
        clients: int = 1, ab_parts: bool = False) -> Meter:
    with tempfile.TemporaryDirectory() as folder, contextlib.ExitStack() as stack:
        store = TinyDBStore(Path(folder))
        sid = seed(store)

        def client() -> AppHarness:
            return stack.enter_context(AppHarness(
                store, routes=village_only_routes(),
                client=FakeClient(initial_route=f"/play/village/{sid}"), strict=False))

        app = client()
        meter = Meter(app, profile, [client() for _ in range(clients - 1)])
        for n in range(warmup + (2 * rounds if ab or ab_parts else rounds)):
            meter.measuring = n >= warmup
            if ab or ab_parts:
                meter.variant = "before " if n % 2 == 0 else "after "
                (baseline if ab else whole_view)(n % 2 == 0)
            meter.tap("cube tap", a_cube(sid))
            meter.tap("end turn", "turn-buttons", text="End turn")
            meter.tap("undo", "undo")
            meter.tap("undo", "undo")
            if clients > 1:  # table mode: the table's taps only
                continue
            app.set_route(f"/play/village/{sid}/player/0")
            meter.tap("counter", key="adjust-grain-plus")
            meter.tap("counter", key="adjust-grain-minus")
            app.set_route(f"/play/village/{sid}")
    return meter


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--top", type=int, default=35)
    parser.add_argument("--ab", action="store_true",
                        help="alternate rounds with the code before this work (panels)")
    parser.add_argument("--ab-parts", action="store_true",
                        help="alternate rounds: the table's whole view diffed / its changed parts")
    parser.add_argument("--clients", type=int, default=1,
                        help="clients on the game (table mode); the table's taps only")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    meter = run(args.rounds, args.warmup, args.profile, args.top, args.ab,
                max(1, args.clients), args.ab_parts)
    print(f"load average {load_before:.2f} before, {os.getloadavg()[0]:.2f} after; "
          f"{max(1, args.clients)} client(s) on the game")
    print("\n".join(meter.report()))
    if args.profile:
        print("\n".join(meter.profiles(args.top)))


if __name__ == "__main__":
    main()
