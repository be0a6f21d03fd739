"""No printed game value is written into the rules code (issue 11): every cost, reward and
count the rulebook prints comes from the component data (`ctx.comp.v(...)`), where it has
its provenance and can be corrected. The rules may still use 0, 1 and -1 (empty, one step,
counting); any other number must be one of the explicit exceptions below."""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path
from typing import Any

import pytest

from companion.store.memory import MemoryStore
from companion.village.autoplay import play_step
from companion.village.components import ComponentData, Edition, load_components
from companion.village.service import ENGINE_VERSION, GAME, VillageService
from companion.village.session import VillageSession
from companion.village.setup import PlayerSetup, VillageSetup

RULES = Path(__file__).resolve().parents[2] / "companion" / "village" / "rules"
# The rules and the read side's queries, which run them on copies of the state.
SCANNED = [*sorted(RULES.glob("*.py")), RULES.parent / "queries.py"]

#: Numbers that are not printed values: (file name, the stripped source line).
ALLOWED: frozenset[tuple[str, str]] = frozenset({
    # Council level numbers: privilege.level names a level of the council, not a value.
    ("council.py", "elif priv.level == 2:  # level numbers name the council's levels, "
                   "not printed values"),
    ("council.py", "elif priv.level == 3:"),
    # Rules versions (companion.village.interpretations), not game values.
    ("deaths.py", "in_final_turns = st.end is not None and (st.end.order_set or "
                  "ctx.rules_version < 2)"),
    ("game_end.py", 'if ctx.state.edition == "big-box" and ctx.rules_version >= 2:'),
    # The length of the ": " after a field path in an error message.
    ("errors.py", "message = line[len(field_path(loc)) + 2:]"),
    # A sort key: members off the board (rank 2) after the others.
    ("karla.py", "return (2, m.level, m.id)"),
    # "Plenty of grain" on a scratch copy used to measure the mill's charge.
    ("queries.py", "miller.grain = plenty = 10 ** 6"),
    # The legal privileges, by the council level whose privilege takes the choice (as in
    # council.py: level numbers, not printed values).
    ("queries.py", '2: [Privilege.model_validate({"level": 2, "cubes": list(cubes)})'),
    ("queries.py", '3: [Privilege.model_validate({"level": 3, "goods": g})'),
    ("queries.py", "4: [Privilege(level=4)],"),
})
FREE = {0, 1}


def _numbers(tree: ast.AST) -> list[ast.Constant]:
    return [node for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and not isinstance(node.value, bool)
            and isinstance(node.value, (int, float, complex))]


def literals_in(path: Path) -> list[str]:
    """`file:line: value | source` for each number in `path` not allowed above."""
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    found = []
    for node in _numbers(ast.parse(source, filename=str(path))):
        # -1 parses as -(1): the constant is 1, so it is free like 0 and 1.
        if node.value in FREE:
            continue
        line = lines[node.lineno - 1].strip()
        if (path.name, line) not in ALLOWED:
            found.append(f"{path.name}:{node.lineno}: {node.value!r} | {line}")
    return found


def test_the_rules_hold_no_printed_values() -> None:
    assert len(SCANNED) > 10
    found = [hit for path in SCANNED for hit in literals_in(path)]
    assert not found, ("numbers written into the rules (move printed values into the "
                       "component data, or allow-list what is not one):\n" + "\n".join(found))


def test_every_exception_is_still_in_the_code() -> None:
    """A stale exception would silently allow the same line elsewhere later."""
    paths = {path.name: path for path in SCANNED}
    for name, line in ALLOWED:
        lines = {s.strip() for s in paths[name].read_text(encoding="utf-8").splitlines()}
        assert line in lines, f"{name}: allowed line no longer there: {line}"


def test_the_scan_finds_a_printed_value(tmp_path: Path) -> None:
    sample = tmp_path / "turns.py"
    sample.write_text("def well(have):\n    return have >= 3 and have != -1 and 0 < 1\n",
                      encoding="utf-8")
    assert literals_in(sample) == ["turns.py:2: 3 | return have >= 3 and have != -1 and 0 < 1"]


# ---- the values moved into the component data, and games stored before the move -------
MOVED = ("well_cubes", "council_advance", "council_privilege_cubes",
         "council_privilege_prestige", "travel_reward")
GOLDEN = Path(__file__).resolve().parents[1] / "golden"


#: The rulebook sentence each moved value's reference quotes (000 Big Box, 004 2011).
PASSAGES: dict[str, dict[str, str]] = {
    "big-box": {
        "well_cubes": "你可以從你的農場上將3個相同顏色的影響力方塊放回供應區",
        "council_advance": "你會需要花費1個卷軸或2個綠色影響力方塊",
        "council_privilege_cubes": "第二階級：從供應區選擇拿取2個不同顏色的影響力方塊",
        "council_privilege_prestige": "第四階級：將正好1枚金幣放回供應區，在聲望軌上獲得3聲望分數",
        "travel_reward": "城市獎勵(3聲望分數、你從供應區選擇2個影響力方塊，或1枚金幣)",
    },
    "2011": {
        "well_cubes": "자신의 농장에서 같은색 큐브 3개를 소비하고",
        "council_advance": "요구품(1~3타임과 2녹색큐브 또는 1~3타임과 1두루마리)",
        "council_privilege_cubes": "원하는 색큐브 2개",
        "council_privilege_prestige": "1원소버 3점인기",
        "travel_reward": "도시혜택(원하는 색 큐브 2개 / 1코인 / 3명성점수)",
    },
}


@pytest.mark.parametrize("edition", ["big-box", "2011"])
def test_the_moved_values_are_shipped_with_their_rulebook_passage(edition: Edition) -> None:
    data = load_components(edition)
    seed = "000" if edition == "big-box" else "004"
    [path] = (Path(__file__).resolve().parents[3] / "shared" / "seeds").glob(f"{seed}_*.txt")
    text = path.read_text("utf-8").replace("**", "")
    assert set(PASSAGES[edition]) == set(MOVED)
    for key, passage in PASSAGES[edition].items():
        entry = data.values[key]
        assert entry.provenance == "seed" and entry.ref.startswith(seed), key
        assert passage in entry.ref and passage in text, f"{edition} {key}"
    assert data.v("well_cubes") == 3 and data.v("mass_draw") == 4
    assert data.v("council_advance") == {"green": 2, "scroll": 1}
    assert data.v("council_privilege_cubes") == 2
    assert data.v("council_privilege_prestige") == {"coins": 1, "prestige": 3}
    assert data.v("travel_reward") == {"prestige": 3, "cubes": 2, "coins": 1}


def _stored_without_moved(edition: Edition) -> dict[str, Any]:
    raw = load_components(edition).model_dump(mode="json")
    for key in MOVED:
        del raw["values"][key]
    return raw


@pytest.mark.parametrize("edition", ["big-box", "2011"])
def test_stored_component_data_without_the_moved_values_gets_the_old_ones(
        edition: Edition) -> None:
    shipped = load_components(edition)
    old = ComponentData.model_validate(_stored_without_moved(edition))
    for key in MOVED:
        assert old.v(key) == shipped.v(key), key  # what the engine played with before
        assert old.values[key].provenance == "source"
    assert old.v("travel_cost") == shipped.v("travel_cost")


def test_a_game_stored_before_the_move_opens_and_replays_unchanged() -> None:
    doc = json.loads((GOLDEN / "three_players.json").read_text(encoding="utf-8"))
    assert not set(MOVED) & set(doc["components"]["values"])  # recorded before the move
    store = MemoryStore()
    header = {"game": GAME, "engine": ENGINE_VERSION, "setup": doc["setup"],
              "components": doc["components"], "prefs": {}}
    store.create("oldgame0000000001", GAME, "old", header, doc["events"])
    session = VillageService(store).open("oldgame0000000001")
    assert session.state.phase == "finished"
    assert json.loads(session.state.model_dump_json()) == doc["final"]


def test_a_game_stored_without_the_moved_values_plays_on() -> None:
    store = MemoryStore()
    svc = VillageService(store)
    setup = VillageSetup(players=[PlayerSetup(name="A", colour="red"),
                                  PlayerSetup(name="B", colour="blue")], seed=11)
    new = VillageSession(setup, ComponentData.model_validate(_stored_without_moved("big-box")))
    header = {"game": GAME, "engine": ENGINE_VERSION, "setup": setup.model_dump(mode="json"),
              "components": _stored_without_moved("big-box"), "prefs": {}}
    store.create("oldgame0000000002", GAME, "old", header, new.events)
    session = svc.open("oldgame0000000002")
    rng = random.Random(5)
    steps = 0
    while steps < 400 and play_step(session, rng) is not None:
        steps += 1
    assert steps > 50
    assert session.state.round > 1
    replayed = VillageSession(setup, load_components("big-box"), session.events)
    assert replayed.state == session.state  # the old values are the printed ones
