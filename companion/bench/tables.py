"""Table mode at scale: how long until every phone at a table shows an action.

`village-companion bench --tables [--sizes 1x5,10x5,50x4] [--actions N] [--think S]`.

For each size N×M the app runs as its own web server (`python -m companion`, bound to
127.0.0.1 only) over a fresh data dir holding N two-player Village games, seeded through
the service as the wizard would. M raw Flet protocol clients per game, all driven from
this one process over real WebSockets (msgpack frames, as the Flutter web client sends
them: register with the game's table route, answer the server's method calls, apply every
patch to a copy of the page, see `flet_mirror`), open the table. Each client connects as
the host on loopback: several host windows on one game, which the server updates exactly
as it updates joined phones (one shared session, every subscribed screen re-rendered and
diffed per client; a joined phone's socket only adds the share guard's cookie check).

Each table then plays rounds of four actions, each by the next of its clients in turn: a
cube take, End turn, and two undos back to where the round began. An action's latency is
from sending the click to the moment the LAST client of that table has received the frame
whose patch changes its turn header (time of arrival in this process, before decoding).
Between actions a table waits a think time (uniform within ±50% of --think), so the N
tables act independently, as real tables do. The server's memory per table is its RSS
after the run, less its RSS after a warm-up game (imports, caches) and before any table's
clients connected, divided by N. Also printed: the server's CPU time per action (all its
threads; what bounds the actions a second one server can take) and the machine's load
average, since on a shared 2-core box other processes slow every figure down. Figures are
printed, never asserted; every process started is stopped.

Joined phones are not simulated through the share guard: one server shares one game at a
time with at most 32 members (companion/share/registry.py), so 50×4 cannot be built that
way, and the server's work per update is the same for a host window and a phone.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import operator
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import msgpack

from companion.bench.flet_mirror import PageMirror
from companion.bench.report import run_and_print
from companion.bench.serve import app_command, free_port, log_beside, serving
from companion.bench.taps import percentile
from companion.core.json_types import JsonObject

DEFAULT_SIZES = ((1, 5), (10, 5), (50, 4))
DEFAULT_ACTIONS = 80  # measured actions per size (whole rounds per table, at least one)
DEFAULT_THINK_S = 2.0  # mean pause between two actions at one table
ACTION_KINDS = ("cube take", "end turn", "undo")
ROUND = ("cube take", "end turn", "undo", "undo")
UPDATE_TIMEOUT_S = 30.0  # an action some client never shows by then counts as lost
OPEN_TIMEOUT_S = 120.0  # every client showing its table (200 clients on a busy box)
CONNECT_BATCH = 10  # clients opening at once (as phones joining, not a thundering herd)
TURN = "table-turn"  # the turn header's Semantics identifier (sections.turn_header)

REGISTER_CLIENT, PATCH_CONTROL, CONTROL_EVENT, INVOKE_METHOD, SESSION_CRASHED = 1, 2, 3, 5, 6


# ---- sizes and figures (pure) ----------------------------------------------------------------
def parse_sizes(text: str) -> list[tuple[int, int]]:
    """ "1x5,10x5" -> [(1, 5), (10, 5)]: tables × clients per table, each at least 1."""
    sizes: list[tuple[int, int]] = []
    for part in text.split(","):
        part = part.strip().lower()
        if not part:
            continue
        tables, sep, clients = part.partition("x")
        if not sep or not tables.isdigit() or not clients.isdigit():
            raise ValueError(f"size {part!r} is not TABLESxCLIENTS, e.g. 10x5")
        n, m = int(tables), int(clients)
        if n < 1 or m < 1:
            raise ValueError(f"size {part!r}: tables and clients must be at least 1")
        sizes.append((n, m))
    if not sizes:
        raise ValueError("no sizes given")
    return sizes


def rounds_for(actions: int, tables: int) -> int:
    """Whole rounds per table so that all tables together make at least `actions`."""
    return max(1, math.ceil(actions / (len(ROUND) * tables)))


def size_figures(tables: int, clients: int, samples: dict[str, list[float]], lost: int,
                 rss_before_kb: int, rss_after_kb: int, seconds: float,
                 server_cpu_s: float = 0.0, load: tuple[float, float] = (0.0, 0.0)
                 ) -> JsonObject:
    """One row: latency in ms over every action kind (and per kind), RSS per table, the
    server's CPU time per action (all its threads) and the machine's 1-minute load
    average before and after (other processes on the box slow every figure down)."""
    pooled = [ms for kind in ACTION_KINDS for ms in samples.get(kind, [])]

    def stats(values: Sequence[float]) -> JsonObject:
        if not values:
            return {"n": 0, "p50": None, "p95": None, "max": None}
        return {"n": len(values), "p50": round(percentile(values, 0.5), 1),
                "p95": round(percentile(values, 0.95), 1), "max": round(max(values), 1)}

    return {"tables": tables, "clients": clients, **stats(pooled), "lost": lost,
            "kinds": {kind: stats(samples.get(kind, [])) for kind in ACTION_KINDS},
            "rss_before_mb": round(rss_before_kb / 1024, 1),
            "rss_after_mb": round(rss_after_kb / 1024, 1),
            "rss_per_table_mb": round((rss_after_kb - rss_before_kb) / 1024 / tables, 2),
            "actions_per_s": round(len(pooled) / seconds, 1) if seconds > 0 else None,
            "server_cpu_ms_per_action": (round(server_cpu_s * 1000 / len(pooled), 1)
                                         if pooled else None),
            "load_before": round(load[0], 2), "load_after": round(load[1], 2)}


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def table_lines(figs: JsonObject) -> list[str]:
    headers = ["N tables", "M clients", "actions", "p50 ms", "p95 ms", "max ms", "lost",
               "RSS/table MB", "actions/s", "server CPU ms/action", "load"]
    rows = [[str(r["tables"]), str(r["clients"]), str(r["n"]), _ms(r["p50"]), _ms(r["p95"]),
             _ms(r["max"]), str(r["lost"]), f"{r['rss_per_table_mb']:.2f}",
             _ms(r["actions_per_s"]), _ms(r["server_cpu_ms_per_action"]),
             f"{r['load_before']:.1f}-{r['load_after']:.1f}"] for r in figs["sizes"]]
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(headers)]
    lines = ["  ".join(h.rjust(w) for h, w in zip(headers, widths, strict=True)),
             "  ".join("-" * w for w in widths)]
    lines += ["  ".join(c.rjust(w) for c, w in zip(row, widths, strict=True)) for row in rows]
    lines.append("per action kind, p50/p95 ms:")
    for r in figs["sizes"]:
        kinds = ", ".join(f"{kind} {_ms(k['p50'])}/{_ms(k['p95'])} (n={k['n']})"
                          for kind, k in r["kinds"].items())
        lines.append(f"  {r['tables']}x{r['clients']}: {kinds}")
    lines.append(f"(clients: {figs['clients_as']}; action = click sent to the last client "
                 f"of the table receiving its update;")
    lines.append(f" think time {figs['think_s']} s ±50% per table between actions; lost = "
                 f"no update within {UPDATE_TIMEOUT_S:.0f} s; RSS/table = server RSS growth "
                 "/ N;")
    lines.append(f" server CPU = the server process's CPU time (all threads) per measured "
                 f"action; load = 1-min load average before-after, on {os.cpu_count()} "
                 "cores)")
    return lines


# ---- the server --------------------------------------------------------------------------------
COLOURS = ("red", "blue")


def seed_games(data_dir: Path, count: int) -> list[str]:
    """`count` two-player Village games at their first take, stored as the wizard would."""
    from companion.store.tinydb_store import TinyDBStore
    from companion.village.service import VillageService
    from companion.village.setup import PlayerSetup, VillageSetup

    service = VillageService(TinyDBStore(data_dir))
    ids = []
    for i in range(count):
        setup = VillageSetup(players=[PlayerSetup(name="Ann", colour=COLOURS[0]),
                                      PlayerSetup(name="Bo", colour=COLOURS[1])],
                             start_player=0, seed=7 + i)
        ids.append(service.create(setup)[0])
    return ids


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process `pid` so far (Linux /proc), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kb(pid: int) -> int:
    """Resident set size of process `pid` (Linux /proc), in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for process {pid}")


@contextlib.contextmanager
def app_server(data_dir: Path) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """The app on a free 127.0.0.1 port (never any other address); yields (process, port)."""
    port = free_port()
    with serving(app_command(port, data_dir), port, log_beside(data_dir)) as server:
        assert server.proc is not None
        yield server.proc, port


# ---- one raw protocol client -------------------------------------------------------------------
def pack_frame(action: int, body: JsonObject) -> bytes:
    return b"\x00" + msgpack.packb([action, body])


def unpack_frame(frame: bytes) -> tuple[int, Any]:
    # Control ids are map keys in the patches' path tables: ints, not strings.
    action, body = msgpack.unpackb(frame[1:], strict_map_key=False,
                                   ext_hook=lambda code, data: msgpack.ExtType(code, data))
    return int(action), body


DEVICE_INFO = {"browser_name": "chrome", "locales": [{"language_code": "en",
                                                      "country_code": "US"}],
               "language": "en-US", "languages": ["en-US"], "platform": "Linux x86_64",
               "user_agent": "table-bench"}


class ProtocolClient:
    """One browser tab's worth of Flet protocol, without the browser."""

    def __init__(self, port: int, route: str, name: str) -> None:
        self.port = port
        self.route = route
        self.name = name
        self.ws: Any = None
        self.mirror: PageMirror | None = None
        self.turn: str | None = None  # the turn header's text as last received
        self.turn_changed_at = 0.0  # perf_counter at arrival of the frame that changed it
        self.changed = asyncio.Event()
        self.crashes: list[str] = []
        self._reader: asyncio.Task[None] | None = None

    async def open(self) -> None:
        from websockets.asyncio.client import connect
        from websockets.typing import Origin

        origin = Origin(f"http://127.0.0.1:{self.port}")  # the page's own, as a browser's
        self.ws = await connect(f"ws://127.0.0.1:{self.port}/ws", origin=origin,
                                user_agent_header=f"table-bench {self.name}",
                                max_size=None, open_timeout=60, ping_interval=None)
        page = {"route": self.route, "web": True, "platform": "linux",
                "platform_brightness": "light", "width": 360, "height": 800}
        await self.ws.send(pack_frame(REGISTER_CLIENT, {"session_id": "", "page_name": "",
                                                   "page": page}))
        self._reader = asyncio.create_task(self._read())

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader

    async def _read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for frame in self.ws:
                arrived = time.perf_counter()
                if not frame or frame[0] != 0:
                    continue
                action, body = unpack_frame(frame)
                if action == REGISTER_CLIENT:
                    self.mirror = PageMirror(body["page_patch"])
                elif action == PATCH_CONTROL and self.mirror is not None:
                    self.mirror.apply(body)
                elif action == INVOKE_METHOD:
                    await self._answer(body)
                    continue
                elif action == SESSION_CRASHED:
                    self.crashes.append(str(body.get("message", "")))
                    continue
                else:
                    continue
                turn = self.mirror.text(TURN) if self.mirror is not None else None
                if turn != self.turn:
                    self.turn, self.turn_changed_at = turn, arrived
                    self.changed.set()
        except ConnectionClosed:
            pass
        except Exception as exc:  # a frame the copy cannot follow: the run must say so
            self.crashes.append(f"{self.name}: {type(exc).__name__}: {exc}")

    async def _answer(self, body: JsonObject) -> None:
        """What the web client answers: device info; nothing for the rest (wakelock,
        haptics, clipboard); a pushed route comes back as a route change."""
        name = body.get("name")
        result: Any = DEVICE_INFO if name == "get_device_info" else None
        await self.ws.send(pack_frame(INVOKE_METHOD, {
            "control_id": body["control_id"], "call_id": body["call_id"],
            "result": result, "error": None}))
        if name == "push_route" and self.mirror is not None:
            route = (body.get("args") or {}).get("route", "/")
            await self.click_event(int(self.mirror.page["_i"]), "route_change",
                                   {"route": route})

    async def click_event(self, control_id: int, name: str = "click",
                          data: object = None) -> None:
        await self.ws.send(pack_frame(CONTROL_EVENT, {"target": control_id, "name": name,
                                                 "data": data}))

    async def wait_turn(self, test: Callable[[str], bool], timeout: float) -> str:
        deadline = time.monotonic() + timeout
        while self.turn is None or not test(self.turn):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"{self.name}: turn header is {self.turn!r}")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), remaining)
        return self.turn

    # ---- what to click -----------------------------------------------------------------------
    def target(self, kind: str) -> int:
        """The control id a player taps for `kind`, from this client's copy of the page."""
        mirror = self.mirror
        assert mirror is not None
        found: int | None = None
        if kind == "cube take":
            for ident in mirror.identifiers():
                parts = ident.split("-")  # cube-<space>-<colour>-<n>
                # Off the market space (it starts a market day), no plague cube.
                if (len(parts) == 4 and parts[0] == "cube" and parts[1] != "market"
                        and parts[2] != "plague"):
                    found = mirror.clickable(ident)
                    if found is not None:
                        break
        elif kind == "end turn":
            found = mirror.clickable("turn-buttons", "FilledButton")
        elif kind == "undo":
            found = mirror.clickable("undo")
        if found is None:
            raise RuntimeError(f"{self.name}: nothing to tap for {kind!r}; "
                               f"turn header {self.turn!r}")
        return found


# ---- one size ---------------------------------------------------------------------------------
@dataclass
class SizeRun:
    samples: dict[str, list[float]] = field(default_factory=dict)
    lost: int = 0


async def _open_table(port: int, session_id: str, clients: int, table: int
                      ) -> list[ProtocolClient]:
    route = f"/play/village/{session_id}"
    opened = [ProtocolClient(port, route, f"t{table}c{c}") for c in range(clients)]
    for client in opened:
        await client.open()
    return opened


async def _act(table: list[ProtocolClient], actor: ProtocolClient, kind: str,
               run: SizeRun) -> None:
    """One tap by `actor`; records ms until every client of `table` shows a new header."""
    before = [c.turn for c in table]
    try:
        control_id = actor.target(kind)
    except RuntimeError:  # an earlier lost update left the table elsewhere: skip this one
        run.lost += 1
        return
    for client in table:
        client.changed.clear()
    started = time.perf_counter()
    await actor.click_event(control_id)
    try:
        for client, old in zip(table, before, strict=True):
            await client.wait_turn(partial(operator.ne, old), UPDATE_TIMEOUT_S)
    except TimeoutError:
        run.lost += 1
        return
    arrived = max(c.turn_changed_at for c in table)
    run.samples.setdefault(kind, []).append((arrived - started) * 1000)


async def _play(table: list[ProtocolClient], rounds: int, think: float, rng: random.Random,
                run: SizeRun) -> None:
    start = table[0].turn
    await asyncio.sleep(rng.uniform(0, think))  # tables start apart, as real ones do
    step = 0
    for _ in range(rounds):
        for kind in ROUND:
            await _act(table, table[step % len(table)], kind, run)
            step += 1
            await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
        # Back where the round began (two undos): a lost update must not drift the game.
        with contextlib.suppress(TimeoutError):
            for client in table:
                await client.wait_turn(lambda s: s == start, UPDATE_TIMEOUT_S)


async def _run_size(port: int, pid: int, warmup_id: str, game_ids: Sequence[str],
                    clients: int, rounds: int, think: float, seed: int,
                    progress: Callable[[str], None]) -> JsonObject:
    tables = len(game_ids)
    # Warm-up: one client plays one round on a game of its own, so imports and caches are
    # in the baseline; it stays connected (its memory is in both RSS figures).
    warm = await _open_table(port, warmup_id, 1, -1)
    await warm[0].wait_turn(lambda s: "take a cube" in s, OPEN_TIMEOUT_S)
    await _play(warm, 1, 0.05, random.Random(seed), SizeRun())
    await asyncio.sleep(1.0)
    rss_before = rss_kb(pid)
    everyone: list[list[ProtocolClient]] = []
    try:
        for first in range(0, tables, max(1, CONNECT_BATCH // clients)):
            batch = game_ids[first:first + max(1, CONNECT_BATCH // clients)]
            everyone += await asyncio.gather(*(
                _open_table(port, sid, clients, first + i) for i, sid in enumerate(batch)))
        for table in everyone:
            for client in table:
                await client.wait_turn(lambda s: "take a cube" in s, OPEN_TIMEOUT_S)
        progress(f"{tables}x{clients}: {tables * clients} clients show their tables")
        run = SizeRun()
        rng = random.Random(seed)
        load_before, cpu_before = os.getloadavg()[0], cpu_seconds(pid)
        own_cpu_before = time.process_time()
        started = time.perf_counter()
        await asyncio.gather(*(_play(table, rounds, think, random.Random(rng.random()), run)
                               for table in everyone))
        seconds = time.perf_counter() - started
        server_cpu, load_after = cpu_seconds(pid) - cpu_before, os.getloadavg()[0]
        own_cpu = time.process_time() - own_cpu_before  # these clients share the cores
        await asyncio.sleep(1.0)
        rss_after = rss_kb(pid)
        crashes = [m for table in everyone for c in table for m in c.crashes]
        if crashes:
            raise RuntimeError(f"the app crashed in a session: {crashes[0][:500]}")
    finally:
        await asyncio.gather(*(c.close() for table in [*everyone, warm] for c in table),
                             return_exceptions=True)
    figs = size_figures(tables, clients, run.samples, run.lost, rss_before, rss_after,
                        seconds, server_cpu, (load_before, load_after))
    figs["clients_cpu_ms_per_action"] = (round(own_cpu * 1000 / figs["n"], 1) if figs["n"]
                                         else None)
    return figs


def measure_size(tables: int, clients: int, *, actions: int = DEFAULT_ACTIONS,
                 think: float = DEFAULT_THINK_S, seed: int = 1,
                 progress: Callable[[str], None] | None = None) -> JsonObject:
    """Serve `tables` fresh games, connect `clients` to each, play; the size's figures."""
    say = progress or (lambda _line: None)
    with tempfile.TemporaryDirectory(prefix="vc-tables-") as tmp:
        data_dir = Path(tmp) / "data"
        warmup_id, *game_ids = seed_games(data_dir, tables + 1)
        with app_server(data_dir) as (proc, port):
            return asyncio.run(_run_size(port, proc.pid, warmup_id, game_ids, clients,
                                         rounds_for(actions, tables), think, seed, say))


def measure_tables(sizes: Sequence[tuple[int, int]] = DEFAULT_SIZES, *,
                   actions: int = DEFAULT_ACTIONS, think: float = DEFAULT_THINK_S,
                   progress: Callable[[str], None] | None = None) -> JsonObject:
    if actions < 1:
        raise ValueError("actions must be at least 1")
    if think < 0:
        raise ValueError("think time must not be negative")
    rows = []
    for tables, clients in sizes:
        rows.append(measure_size(tables, clients, actions=actions, think=think,
                                 progress=progress))
        if progress is not None:
            progress(f"{tables}x{clients}: p50 {rows[-1]['p50']} ms, p95 {rows[-1]['p95']} ms")
    return {"sizes": rows, "think_s": think, "actions": actions,
            "clients_as": "host windows on 127.0.0.1 (raw Flet protocol over WebSockets, "
                          "one process)"}


def run_cli(args: argparse.Namespace) -> int:
    """`village-companion bench --tables`: measure, then print the table (or JSON)."""
    def measure() -> dict[str, Any]:
        sizes = parse_sizes(getattr(args, "sizes", None) or
                            ",".join(f"{n}x{m}" for n, m in DEFAULT_SIZES))
        return measure_tables(sizes, actions=int(getattr(args, "actions", DEFAULT_ACTIONS)),
                              think=float(getattr(args, "think", DEFAULT_THINK_S)),
                              progress=lambda line: print(line, file=sys.stderr, flush=True))

    return run_and_print("tables", measure, table_lines, bool(args.json))


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.default_int_handler)
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default=None)
    parser.add_argument("--actions", type=int, default=DEFAULT_ACTIONS)
    parser.add_argument("--think", type=float, default=DEFAULT_THINK_S)
    parser.add_argument("--json", action="store_true")
    raise SystemExit(run_cli(parser.parse_args()))
