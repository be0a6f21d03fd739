"""The Material icon font the app ships: only the icons it can show (issue 23).

Flet's web client lists Flutter's MaterialIcons-Regular.otf (about 1.2 MB, every one of
Material's ~8,600 icons) in its font manifest, and every page load fetched all of it. The
app's own font manifest (assets/assets/FontManifest.json, which Flet serves instead of its
own) names `ICON_FONT_ASSET` instead: a subset holding

- every `ft.Icons.X` the app's code names (found in companion/ by its syntax tree), and the
  icons the games registry names as data (Home's new-game buttons, `companion.games`);
- every Material icon the web client's own Dart code draws (Flutter's and Flet's widgets:
  the back arrow, close, the dropdown arrows, the date picker's, the password eye, ...),
  read from the compiled client (flet_web's main.dart.js): the icon constants it uses
  outside the table of all icons that `ft.Icons` indexes.

An `ft.Icons` value is 0x10000 plus the icon's index in that table; the table gives its
code point in the font. `python build/subset_icon_font.py` writes the subset (with
fontTools, a build and test dependency only); tests/web/test_icon_font.py fails when the app
names an icon the subset lacks, or when a regenerated subset differs from the shipped one
(a new flet-web). No Flet import: flet_web's files are read as files.
"""

from __future__ import annotations

import ast
import importlib.util
import io
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from companion.bundled import bundled_dir
from companion.games import GAMES

PACKAGE = Path(__file__).resolve().parents[1]  # companion/
# The font's path in Flutter's font manifest (under /assets/ on the web server).
ICON_FONT_ASSET = "fonts/MaterialIcons-App.otf"
FULL_FONT_NAME = "MaterialIcons-Regular.otf"
MATERIAL_SET = 1  # the high half of an ft.Icons value; CupertinoIcons are set 2
# Files that look icons up by name at run time (getattr), and what names them there.
DYNAMIC_LOOKUPS = {"app/views/home.py": "companion.games (Start.icon)"}

# The compiled client: `B.x=new A.a(57415,"MaterialIcons",null,!1)` (an IconData constant)
# and `$.y=A.d([B.x,...],...)`, the table of every icon (thousands of constants).
_CONSTANT = re.compile(r'(B\.\w+)=new A\.a\(([\d.e]+),"MaterialIcons"')
_TABLE = re.compile(r"=A\.d\(\[((?:B\.\w+,){5000,}B\.\w+)\]")
_REFERENCE = re.compile(r"\bB\.\w+\b(?!=)")


def flet_web_dir() -> Path:
    """flet_web's web client folder (installed with flet-web), found without importing it."""
    spec = importlib.util.find_spec("flet_web")
    if spec is None or spec.origin is None:
        raise FileNotFoundError("flet-web is not installed")
    return Path(spec.origin).parent / "web"


def flet_icons_json() -> Path:
    """Flet's table of `ft.Icons` names and values (flet/controls/material/icons.json)."""
    spec = importlib.util.find_spec("flet")
    if spec is None or spec.origin is None:
        raise FileNotFoundError("flet is not installed")
    return Path(spec.origin).parent / "controls" / "material" / "icons.json"


@dataclass(frozen=True)
class ClientIcons:
    """What the compiled web client says about Material icons."""

    table: tuple[int, ...]  # code point of the icon at each ft.Icons index
    drawn_by_client: frozenset[int]  # code points its own widgets draw


def read_client_icons(main_dart_js: str) -> ClientIcons:
    """The icon table and the client's own icons from the text of main.dart.js."""
    constants = {m.group(1): int(float(m.group(2))) for m in _CONSTANT.finditer(main_dart_js)}
    table = _TABLE.search(main_dart_js)
    if not constants or table is None:
        raise ValueError("main.dart.js: no Material icon table found (a new flet-web? "
                         "see companion/web/icon_font.py)")
    names = table.group(1).split(",")
    unknown = [name for name in names if name not in constants]
    if unknown:
        raise ValueError(f"main.dart.js: icon table entries that are no Material icon: "
                         f"{unknown[:5]}")
    outside = (main_dart_js[:table.start()], main_dart_js[table.end():])
    used = {constants[m.group(0)] for text in outside for m in _REFERENCE.finditer(text)
            if m.group(0) in constants}
    return ClientIcons(tuple(constants[name] for name in names), frozenset(used))


@cache
def client_icons() -> ClientIcons:
    """`read_client_icons` of the installed flet-web's main.dart.js."""
    text = (flet_web_dir() / "main.dart.js").read_text(encoding="utf-8")
    return read_client_icons(text)


@cache
def icon_values() -> dict[str, int]:
    """Every `ft.Icons` name and its value (0x10000 + its index in the client's table)."""
    values: dict[str, int] = json.loads(flet_icons_json().read_text(encoding="utf-8"))
    return values


def code_point(name: str) -> int:
    """The font code point of `ft.Icons.<name>`; KeyError for no such Material icon."""
    value = icon_values()[name]
    if value >> 16 != MATERIAL_SET:
        raise KeyError(f"{name} is no Material icon")
    return client_icons().table[value & 0xFFFF]


# ---- the icons the app names ----------------------------------------------------------------
def _is_icons(node: ast.AST) -> bool:
    """`ft.Icons` or `Icons` (not CupertinoIcons)."""
    return ((isinstance(node, ast.Attribute) and node.attr == "Icons")
            or (isinstance(node, ast.Name) and node.id == "Icons"))


@dataclass(frozen=True)
class SourceIcons:
    names: frozenset[str]  # every `Icons.NAME` in the code
    dynamic: frozenset[str]  # files (relative to companion/) that look icons up otherwise


def source_icons(files: Iterable[Path], root: Path = PACKAGE) -> SourceIcons:
    """The `Icons.NAME` attributes in `files`, and the files that reach `Icons` in any other
    way (getattr(ft.Icons, ...), ft.Icons[...], Icons passed on as a value)."""
    names: set[str] = set()
    dynamic: set[str] = set()
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        parents = {child: node for node in ast.walk(tree)
                   for child in ast.iter_child_nodes(node)}
        for node in ast.walk(tree):
            if not _is_icons(node):
                continue
            parent = parents.get(node)
            if isinstance(parent, ast.Attribute) and parent.value is node:
                names.add(parent.attr)
            else:
                dynamic.add(path.relative_to(root).as_posix())
    return SourceIcons(frozenset(names), frozenset(dynamic))


def app_source_files(root: Path = PACKAGE) -> list[Path]:
    return sorted(p for p in root.rglob("*.py") if "__pycache__" not in p.parts)


def registry_icons() -> frozenset[str]:
    """The icon names the games registry holds as data (Home's new-game buttons)."""
    return frozenset(start.icon for game in GAMES for start in game.starts)


def app_icon_names() -> frozenset[str]:
    """Every `ft.Icons` name the app can show: its code's and the games registry's."""
    return source_icons(app_source_files()).names | registry_icons()


def needed_code_points() -> frozenset[int]:
    """The code points the shipped subset must hold: the app's icons and the client's."""
    return frozenset(code_point(name) for name in app_icon_names()) | (
        client_icons().drawn_by_client)


# ---- the subset (fontTools: a build and test dependency) ------------------------------------
def build_subset(full_font: bytes, code_points: Iterable[int]) -> bytes:
    """`full_font` (an OpenType font) cut down to `code_points`; the same bytes for the same
    input (no time stamp is renewed)."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.glyph_names = False
    font = TTFont(io.BytesIO(full_font), recalcTimestamp=False)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(set(code_points)))
    subsetter.subset(font)
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def subset_bytes() -> bytes:
    """The subset the shipped file should hold, from the installed flet-web."""
    full = (flet_web_dir() / "assets" / "fonts" / FULL_FONT_NAME).read_bytes()
    return build_subset(full, needed_code_points())


def icon_font_file() -> Path:
    """The shipped subset: assets/assets/<ICON_FONT_ASSET> (served as /assets/<...>)."""
    return bundled_dir("assets") / "assets" / ICON_FONT_ASSET


def write_subset(path: Path | None = None) -> Path:
    path = path or icon_font_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(subset_bytes())
    return path
