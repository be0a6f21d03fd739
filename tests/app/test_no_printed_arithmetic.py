"""The app computes no printed value (issue 21): no screen does arithmetic or a comparison
on a Village component value (`comp.n(...)`, `comp.numbers(...)`, `comp.counts(...)` …).

An AST walk over companion/app: no operand of a `+ - * / // %`, of an augmented
assignment or of a comparison is a component-data read, bare or inside int(), len(),
sum(), min() or max(), or indexed. Such a quantity is a question for the engine's read
side (`companion.village.read.Reader`, one function per printed quantity: the time
marker's spaces to the quill, the chronicle's blocked slots, the market's closed front
spaces …), which the screens render as it is. Reading a printed value to show it as it
stands (`comp.n("mass_buyout_cost")`) is fine."""

from __future__ import annotations

import ast
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "companion" / "app"
# ComponentData's readers (companion/village/components.py).
READS = frozenset({"v", "n", "flag", "numbers", "number_lists", "counts", "names",
                   "name_lists", "front_spaces", "chronicle_capacity", "graveyard_capacity",
                   "setup_card", "train_time", "cities"})
WRAPPERS = frozenset({"int", "float", "len", "sum", "min", "max", "list", "tuple"})


def _is_comp(node: ast.expr) -> bool:
    """`comp` or `<anything>.comp`: the component data."""
    return (isinstance(node, ast.Name) and node.id == "comp") or (
        isinstance(node, ast.Attribute) and node.attr == "comp")


def _reads_component(node: ast.expr, held: frozenset[str] = frozenset()) -> bool:
    """`comp.<read>(...)` or a name `held` from one, indexed, wrapped (int(...), len(...),
    …) or asked (`printed.get(...)`) any number of times."""
    while True:
        if isinstance(node, ast.Subscript):
            node = node.value
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in WRAPPERS and len(node.args) == 1):
            node = node.args[0]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and isinstance(node.func.value, ast.Name) and node.func.value.id in held):
            return True
        else:
            break
    if isinstance(node, ast.Name):
        return node.id in held
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in READS and _is_comp(node.func.value))


def _held(scope: ast.AST) -> frozenset[str]:
    """Names a function assigns a component read (`top = int(comp.n("council_levels"))`)."""
    if not isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef):
        return frozenset()
    return frozenset(
        target.id for node in ast.walk(scope)
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None
        and _reads_component(node.value)
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Name))


def _operands(node: ast.AST) -> list[ast.expr]:
    """What `node` computes with: both sides of an operator, an augmented assignment's
    value, every side of a comparison (a membership test, `x in printed`, only looks up)."""
    if isinstance(node, ast.BinOp):
        return [node.left, node.right]
    if isinstance(node, ast.AugAssign):
        return [node.value]
    if isinstance(node, ast.Compare) and not any(
            isinstance(op, ast.In | ast.NotIn) for op in node.ops):
        return [node.left, *node.comparators]
    return []


def arithmetic_on_components(source: str) -> list[int]:
    """The lines of `source` that compute with a component value."""
    tree = ast.parse(source)
    lines: set[int] = set()
    for scope in [tree, *ast.walk(tree)]:
        if scope is not tree and not isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        held = _held(scope)
        for node in ast.walk(scope):
            if isinstance(node, ast.expr | ast.stmt) and any(
                    _reads_component(o, held) for o in _operands(node)):
                lines.add(node.lineno)
    return sorted(lines)


def test_no_screen_computes_with_a_component_value() -> None:
    files = sorted(APP.rglob("*.py"))
    assert len(files) > 40
    found = {f"{p.relative_to(APP)}:{line}"
             for p in files for line in arithmetic_on_components(p.read_text("utf-8"))}
    assert sorted(found) == []


def test_the_check_catches_what_the_screens_used_to_do() -> None:
    """The shapes this issue moved out of the app, each caught."""
    caught = [
        'to_quill = int(self.comp.n("time_track_length")) - p.time',
        'blocked = len(self.comp.numbers("graveyard_slots")) - st.graveyard_capacity',
        'blocked = len(printed.get(s, [])) - c\nprinted = x\n'
        'n = len(comp.number_lists("chronicle_sections")["farm"]) - 3',
        "closed = i >= self.comp.front_spaces(len(st.players))",
        'def f(self):\n    open_front = self.comp.front_spaces(3)\n    return i >= open_front',
        'def g(env):\n    top = int(env.comp.n("council_levels"))\n    return level < top',
        'def h(self):\n    cost = self.comp.n("mass_buyout_cost")\n    return chosen * cost',
        'cities = range(1, env.comp.n("travel_cities") + 1)',
        'left = 5\nleft -= comp.counts("mill")["coins"]',
    ]
    for source in caught:
        assert arithmetic_on_components(source), source
    shown = ['cost = self.comp.n("mass_buyout_cost")',
             'text = t("x", cap=comp.n("grain_max"))',
             "space = marker.space + 1",
             'on = pos in comp.number_lists("karla_fate_after").get("top", [])',
             'def a(self):\n    cost = self.comp.n("x")\n\ndef b(r):\n    cost = r.f()\n'
             '    return cost + 1']
    for source in shown:
        assert arithmetic_on_components(source) == [], source
