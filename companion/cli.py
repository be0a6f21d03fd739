"""Command-line entry: `village-companion [app options] | score FILE | bench | simulate-karla`."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from companion.core.validation import InputProblems
from companion.scoring.contract import ScoreSheet


def _print_table(sheet: ScoreSheet) -> None:
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
    print("  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)))
    print()
    print(f"{sheet.game}: winner{'s' if len(sheet.winners) != 1 else ''}: "
          + (", ".join(sheet.winners) or "none"))
    for p in sheet.players:
        if p.tiebreak:
            print(f"  {p.name}: {p.tiebreak}")


def cmd_score(args: argparse.Namespace) -> int:
    from companion.scoring.registry import score

    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text("utf-8")
    except OSError as exc:
        print(f"FILE: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        payload = json.loads(text)
    except json.JSONDecodeError as exc:
        print(f"(input): not valid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}",
              file=sys.stderr)
        return 2
    try:
        sheet = score(payload)
    except InputProblems as exc:
        for line in exc.lines:
            print(line, file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(sheet.to_json(), ensure_ascii=False, indent=2))
    else:
        _print_table(sheet)
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from companion.bench import run_bench

    return run_bench(args)


def cmd_simulate_karla(args: argparse.Namespace) -> int:
    from companion.village.simulate import run_simulation_cli

    return run_simulation_cli(args)


def cmd_app(args: argparse.Namespace) -> int:
    # A broken install (flet missing, an import error in the app) fails loudly here.
    from companion.app.launch import run_app

    return run_app(host=args.host, port=args.port, data_dir=args.data_dir)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="village-companion",
        description="Table companion for Village; with no subcommand it starts the app.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="app: address to bind")
    parser.add_argument("--port", type=int, default=8550, help="app: port to serve on")
    parser.add_argument("--data-dir", default=None,
                        help="where sessions are stored (also VILLAGE_COMPANION_DATA_DIR)")
    sub = parser.add_subparsers(dest="command")

    p_score = sub.add_parser("score", help="score a finished game given as JSON")
    p_score.add_argument("file", help="JSON file, or - for standard input")
    p_score.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p_score.set_defaults(func=cmd_score)

    p_bench = sub.add_parser("bench", help="print speed and memory figures")
    p_bench.add_argument("--json", action="store_true")
    p_bench.add_argument("--startup", action="store_true",
                         help="measure app start-up against a bare Flet app")
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
