"""Command-line entry: `village-companion [app options] | score FILE | bench | simulate-karla`."""

from __future__ import annotations

import argparse
import errno
import gc
import json
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the scoring models load with the command that scores (not at app start)
    from companion.scoring.contract import ScoreSheet


def _table_lines(sheet: ScoreSheet) -> list[str]:
    cats: list[str] = []
    for p in sheet.players:
        for c in p.categories:
            if c not in cats:
                cats.append(c)
    headers = ["player", *cats, "total", "rank"]
    if any(p.achievement for p in sheet.players):
        headers.append("achievement")
    rows = []
    for p in sheet.players:
        row = [p.name, *[str(p.categories.get(c, "")) for c in cats]]
        row.append("out" if p.eliminated else str(p.total))
        row.append("-" if p.rank is None else str(p.rank))
        if "achievement" in headers:
            row.append(p.achievement or "")
        rows.append(row)
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)),
             "  ".join("-" * w for w in widths)]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows]
    lines.append("")
    lines.append(f"{sheet.game}: winner{'s' if len(sheet.winners) != 1 else ''}: "
                 + (", ".join(sheet.winners) or "none"))
    lines += [f"  {p.name}: {p.tiebreak}" for p in sheet.players if p.tiebreak]
    return lines


# Everything str.splitlines() breaks on (C0, DEL, C1 incl. NEL, U+2028/9), plus lone
# surrogates, which cannot be written as UTF-8.
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    return _ESCAPES.get(char) or (f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}")


def one_line(text: str) -> str:
    """`text` with control characters and lone surrogates escaped (as repr does), so a
    problem line stays one printable line whatever field names the input used."""
    return _UNPRINTABLE.sub(_escape, text)


def _report(lines: Sequence[str]) -> int:
    """Print one line per problem on stderr and return exit code 2."""
    for line in [line for line in lines if line.strip()] or ["(input): cannot be scored"]:
        print(one_line(line), file=sys.stderr)
    return 2


def _read_input(file: str) -> bytes:
    """The score file's bytes; `-` is standard input, read as bytes (decoded later)."""
    if file != "-":
        return Path(file).read_bytes()
    if sys.stdin is None:  # started with standard input closed
        raise OSError(errno.EBADF, "standard input is closed")
    stream = getattr(sys.stdin, "buffer", None)
    if stream is not None:
        data: bytes = stream.read()
        return data
    # A text-only stand-in for stdin: anything it cannot hold as UTF-8 is refused later.
    return str(sys.stdin.read()).encode("utf-8", "surrogatepass")


def cmd_score(args: argparse.Namespace) -> int:
    from companion.scoring.registry import score_document

    try:
        data = _read_input(args.file)
    except OSError as exc:
        return _report([f"FILE: cannot read {args.file}: {exc.strerror or exc}"])
    except UnicodeDecodeError as exc:  # a text-only stdin that decodes by itself
        return _report([f"(input): not UTF-8 at byte {exc.start}"])
    from companion.core.validation import InputProblems

    try:
        sheet = score_document(data)
        if args.json:
            out = json.dumps(sheet.to_json(), ensure_ascii=False, indent=2)
        else:
            out = "\n".join(_table_lines(sheet))
    except InputProblems as exc:
        return _report(exc.lines)
    except RecursionError:
        return _report(["(input): nested too deeply"])
    except Exception as exc:  # last resort: a bug must not end in a traceback
        return _report([f"(input): cannot be scored ({type(exc).__name__}: {exc})"])
    try:
        print(out)
    except UnicodeEncodeError as exc:  # nothing was written: the text is encoded first
        return _report([f"(output): the result cannot be written as {exc.encoding} "
                        "(set PYTHONIOENCODING=utf-8)"])
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    if getattr(args, "cold_load", False):  # cold page loads in Chromium (issue 23)
        from companion.bench.cold_load import run_cli

        return run_cli(int(args.loads), bool(args.json), str(args.renderer))
    from companion.bench.main import run_bench

    return run_bench(args)


def cmd_simulate_karla(args: argparse.Namespace) -> int:
    from companion.village.simulate import run_simulation_cli

    return run_simulation_cli(args)


def cmd_app(args: argparse.Namespace) -> int:
    # No garbage collection while Flet and the app are imported and until the server has
    # answered (issue 23): run_app resumes it (launch.resume_garbage_collection).
    gc.disable()
    # A broken install (flet missing, an import error in the app) fails loudly here.
    from companion.app.launch import run_app

    return run_app(host=args.host, port=args.port, data_dir=args.data_dir,
                   allow_hosts=tuple(args.allow_host or ()),
                   allow_origins=tuple(args.allow_origin or ()), share=args.share)


def _allow_option(kind: str) -> Callable[[str], str]:
    """argparse type for --allow-host/--allow-origin: the canonical value, or a usage
    error (exit 2) naming what is wrong."""

    def check(value: str) -> str:
        from companion.web import server_guard  # no Flet import: cheap for every command

        parse = (server_guard.allow_host_option if kind == "host"
                 else server_guard.allow_origin_option)
        try:
            return parse(value)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return check


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="village-companion",
        description="Table companion for Village; with no subcommand it starts the app.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="app: address to bind")
    parser.add_argument("--port", type=int, default=8550, help="app: port to serve on")
    parser.add_argument("--data-dir", default=None,
                        help="where sessions are stored (also VILLAGE_COMPANION_DATA_DIR)")
    parser.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                        type=_allow_option("host"),
                        help="app: also answer requests for this host name or address "
                             "(NAME or NAME:PORT, repeatable), e.g. the LAN address phones "
                             "use; only 127.0.0.1, localhost, [::1] and a specific --host "
                             "are answered otherwise")
    parser.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                        type=_allow_option("origin"),
                        help="app: also accept pages from this origin "
                             "(http(s)://host[:port], repeatable), e.g. a reverse proxy's "
                             "public address")
    parser.add_argument("--share", nargs="?", const="", default=None, metavar="ADDRESS",
                        help="app: let phones at the table join a game over the local "
                             "network (table mode): also listen on ADDRESS (default: this "
                             "machine's first LAN address); 127.0.0.1 is still served")
    sub = parser.add_subparsers(dest="command")

    p_score = sub.add_parser("score", help="score a finished game given as JSON")
    p_score.add_argument("file", help="JSON file, or - for standard input")
    p_score.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p_score.set_defaults(func=cmd_score)

    p_bench = sub.add_parser("bench", help="print speed and memory figures")
    p_bench.add_argument("--json", action="store_true")
    p_bench.add_argument("--startup", action="store_true",
                         help="measure app start-up against a bare Flet app")
    p_bench.add_argument("--taps", action="store_true",
                         help="only tap latency in headless Chromium (/usr/bin/chromium): "
                              "the Village table against a bare Flet counter")
    p_bench.add_argument("--rounds", type=int, default=30, metavar="N",
                         help="--taps: rounds to measure (default 30)")
    p_bench.add_argument("--renderer", choices=("auto", "canvaskit", "skwasm"),
                         default="auto",
                         help="--taps: the web renderer of both apps (default auto, what "
                              "the app serves: skwasm in Chromium, CanvasKit where "
                              "WebAssembly GC is missing)")
    p_bench.add_argument("--input", choices=("touch", "mouse"), default="touch",
                         help="--taps: how both apps are tapped (default touch, a phone's "
                              "finger; mouse, a desktop click whose pointer hovers first)")
    p_bench.add_argument("--history", action="store_true",
                         help="only the history: list, first page and statistics with "
                              "100, 1,000 and 10,000 finished games")
    p_bench.add_argument("--tables", action="store_true",
                         help="only table mode at scale: N tables with M clients each "
                              "(raw Flet protocol over WebSockets to a server on "
                              "127.0.0.1), action-to-last-client latency and RSS per table")
    p_bench.add_argument("--home", action="store_true",
                         help="--history: also Home's history on the live app (first show, "
                              "cold and warm, and server memory after 1 and 20 Home loads)")
    p_bench.add_argument("--sizes", default=None, metavar="NxM,...",
                         help="--tables: tables x clients per table (default 1x5,10x5,50x4); "
                              "--history: game counts (default 100,1000,10000)")
    p_bench.add_argument("--actions", type=int, default=80, metavar="N",
                         help="--tables: actions measured per size (default 80)")
    p_bench.add_argument("--think", type=float, default=2.0, metavar="SECONDS",
                         help="--tables: mean pause between two actions at one table "
                              "(default 2.0)")
    p_bench.add_argument("--cold-load", action="store_true",
                         help="only cold page loads in headless Chromium "
                              "(/usr/bin/chromium): time to a usable Home against a bare "
                              "Flet app's first frame, and the bytes each load transfers "
                              "(--renderer applies too)")
    p_bench.add_argument("--loads", type=int, default=5, metavar="N",
                         help="--cold-load: loads of each app (default 5)")
    p_bench.set_defaults(func=cmd_bench)

    p_sim = sub.add_parser("simulate-karla", help="play random solo games against Karla")
    p_sim.add_argument("--games", type=int, default=100)
    p_sim.add_argument("--seed", type=int, default=1)
    p_sim.add_argument("--json", action="store_true")
    p_sim.set_defaults(func=cmd_simulate_karla)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", cmd_app)
    return int(func(args))


if __name__ == "__main__":
    raise SystemExit(main())
