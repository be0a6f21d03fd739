"""Re-create assets/assets/fonts/MaterialIcons-App.otf: the Material icons the app can show.

Why: Flet's web client fetches Flutter's whole MaterialIcons-Regular.otf (about 1.2 MB) on
every cold page load, for the hundred-odd icons the app and Flutter's widgets draw (issue
23). The subset holds those (see companion/web/icon_font.py for which); the app's font
manifest (assets/assets/FontManifest.json) names it instead of the full font.

Run after adding an `ft.Icons.X` to the app, or after upgrading flet-web
(tests/web/test_icon_font.py fails until you do). Needs fontTools (pip install fonttools;
in the test extra). Run: python build/subset_icon_font.py
"""

from __future__ import annotations

from companion.web.icon_font import needed_code_points, write_subset


def main() -> None:
    path = write_subset()
    print(f"wrote {path} ({path.stat().st_size:,} bytes, "
          f"{len(needed_code_points())} icons)")


if __name__ == "__main__":
    main()
