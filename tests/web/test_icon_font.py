"""The Material icon font the app ships holds every icon it can show, and only those
(issue 23: the full font is 1.2 MB on every cold load). See companion/web/icon_font.py."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from companion.web import icon_font
from companion.web.icon_font import (
    DYNAMIC_LOOKUPS,
    FULL_FONT_NAME,
    ICON_FONT_ASSET,
    app_icon_names,
    client_icons,
    code_point,
    flet_web_dir,
    icon_font_file,
    needed_code_points,
    read_client_icons,
    source_icons,
)

ttLib = pytest.importorskip("fontTools.ttLib")
REPO = Path(__file__).resolve().parents[2]


def shipped_code_points() -> set[int]:
    return set(ttLib.TTFont(icon_font_file()).getBestCmap())


def test_every_icon_the_app_can_show_is_in_the_shipped_font() -> None:
    shipped = shipped_code_points()
    missing = sorted(name for name in app_icon_names() if code_point(name) not in shipped)
    assert not missing, (f"ft.Icons {missing} are not in {ICON_FONT_ASSET}: run "
                         "python build/subset_icon_font.py")
    drawn_by_client = client_icons().drawn_by_client
    assert drawn_by_client <= shipped, "icons Flutter's widgets draw are missing"
    assert icon_font_file().stat().st_size < 40_000  # the point of it


def outlines(font: Any, code_points: set[int]) -> dict[int, tuple[int, list[Any]]]:
    """Each code point's advance width and drawn outline (as a pen records it): equal
    glyphs compare equal whatever fontTools version wrote the file."""
    from fontTools.pens.recordingPen import RecordingPen

    cmap, glyphs = font.getBestCmap(), font.getGlyphSet()
    out: dict[int, tuple[int, list[Any]]] = {}
    for point in code_points:
        pen = RecordingPen()
        glyphs[cmap[point]].draw(pen)
        out[point] = (font["hmtx"][cmap[point]][0], pen.value)
    return out


def test_the_shipped_font_is_what_the_build_script_makes_from_this_flet_web() -> None:
    """Exactly the needed icons, drawn as in the installed flet-web's full font (a new
    flet-web may move or redraw icons: then regenerate)."""
    message = "the icon subset is stale: run python build/subset_icon_font.py"
    needed = set(needed_code_points()) - {0x20}
    shipped = ttLib.TTFont(icon_font_file())
    assert set(shipped.getBestCmap()) - {0x20} == needed, message
    full = ttLib.TTFont(flet_web_dir() / "assets" / "fonts" / FULL_FONT_NAME)
    assert outlines(shipped, needed) == outlines(full, needed), message
    assert shipped["head"].unitsPerEm == full["head"].unitsPerEm
    # and the build script writes such a font
    rebuilt = ttLib.TTFont(io.BytesIO(icon_font.subset_bytes()))
    assert outlines(rebuilt, needed) == outlines(full, needed)


def test_icon_names_map_to_flutters_code_points() -> None:
    # Flutter's material/icons.dart: add e047, arrow_back e092, check e156, close e16a
    assert [code_point(n) for n in ("ADD", "ARROW_BACK", "CHECK", "CLOSE")] == [
        0xE047, 0xE092, 0xE156, 0xE16A]
    with pytest.raises(KeyError):
        code_point("NO_SUCH_ICON")
    # what Flutter's and Flet's widgets draw by themselves: the back button, a dialog's or
    # snack bar's close, a dropdown's arrow, a popup menu's dots, the date picker's pencil
    client = client_icons().drawn_by_client
    assert {code_point(n) for n in ("ARROW_BACK", "CLOSE", "ARROW_DROP_DOWN", "MORE_VERT",
                                    "EDIT_OUTLINED", "VISIBILITY")} <= client
    assert len(client) < 100


def test_the_client_table_reader_on_a_small_client() -> None:
    constants = "".join(f"B.c{i}=new A.a({0xE000 + i},\"MaterialIcons\",null,!1)\n"
                        for i in range(6000))
    table = "$.t=A.d([" + ",".join(f"B.c{i}" for i in range(6000)) + "],A.a5(\"F<a>\"))\n"
    code = "A.x.prototype={$1(a){return B.c42},$S:1}\nq=a?B.c7:B.c5999\n"
    icons = read_client_icons(constants + table + code)
    assert icons.table[0] == 0xE000 and icons.table[5999] == 0xE000 + 5999
    assert icons.drawn_by_client == {0xE000 + 42, 0xE000 + 7, 0xE000 + 5999}
    with pytest.raises(ValueError):
        read_client_icons(constants)  # no table: a new client, said aloud


def test_source_icons_finds_named_icons_and_lookups_by_name(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(
        "import flet as ft\nfrom flet import Icons\n"
        "x = ft.Icon(ft.Icons.ADD_CIRCLE)\ny = Icons.CLOSE\nz = ft.CupertinoIcons.ADD\n",
        encoding="utf-8")
    (tmp_path / "b.py").write_text("import flet as ft\nicon = getattr(ft.Icons, name)\n",
                                   encoding="utf-8")
    found = source_icons(sorted(tmp_path.glob("*.py")), root=tmp_path)
    assert found.names == {"ADD_CIRCLE", "CLOSE"}
    assert found.dynamic == {"b.py"}


def test_only_known_files_look_icons_up_by_name() -> None:
    """A getattr(ft.Icons, ...) elsewhere would name icons the AST cannot see."""
    assert source_icons(icon_font.app_source_files()).dynamic == set(DYNAMIC_LOOKUPS)
    assert {"GROUPS", "PERSON", "CASTLE"} <= app_icon_names()  # the games registry's


def test_the_font_manifest_names_the_subset_and_the_wheel_carries_it() -> None:
    manifest = json.loads((REPO / "assets" / "assets" / "FontManifest.json").read_text(
        encoding="utf-8"))
    assert manifest == [{"family": "MaterialIcons",
                         "fonts": [{"asset": ICON_FONT_ASSET}]}]
    assert '"assets/fonts/*.otf"' in (REPO / "pyproject.toml").read_text(encoding="utf-8")
