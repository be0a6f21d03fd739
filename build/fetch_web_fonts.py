"""Re-create assets/fonts/: the CJK fonts the web client needs offline.

Why: Flutter's web renderers (CanvasKit/skwasm) cannot use the browser's system fonts.
For a glyph Roboto lacks (Hangul, Han) Flutter fetches Noto slices from Google Fonts, or,
in Flet's no-CDN mode, from `assets/fonts/<google path>` which nobody serves, so Korean and
Chinese render as empty boxes. We ship our own Noto Sans subsets instead and list them as
font fallbacks in the theme (companion/app/theme.py):

* noto-sans-kr "korean" subset: all 11,172 Hangul syllables (~0.5 MB)
* noto-sans-tc "chinese-traditional" subset: ~6,300 common Han characters (~1 MB)
* noto-sans-tc slices 118 and 119: full-width punctuation （），：「」、。 missing above

Source: the npm packages @fontsource/noto-sans-kr and @fontsource/noto-sans-tc (SIL Open
Font License 1.1, copied to assets/fonts/OFL-NotoSans.txt). Needs `npm` (registry access).
Run: python build/fetch_web_fonts.py
"""

from __future__ import annotations

import subprocess
import tarfile
import tempfile
from pathlib import Path

VERSION = "5.3.0"
FILES = {
    "noto-sans-kr": ["noto-sans-kr-korean-400-normal.woff2"],
    "noto-sans-tc": ["noto-sans-tc-chinese-traditional-400-normal.woff2",
                     "noto-sans-tc-118-400-normal.woff2",
                     "noto-sans-tc-119-400-normal.woff2"],
}
OUT = Path(__file__).resolve().parent.parent / "assets" / "fonts"


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for package, names in FILES.items():
            subprocess.run(["npm", "pack", "--silent", f"@fontsource/{package}@{VERSION}"],
                           cwd=tmp, check=True, stdout=subprocess.DEVNULL)
            archive = Path(tmp) / f"fontsource-{package}-{VERSION}.tgz"
            with tarfile.open(archive) as tar:
                for name in names:
                    member = tar.extractfile(f"package/files/{name}")
                    assert member is not None, name
                    (OUT / name).write_bytes(member.read())
                    print("wrote", OUT / name)
                licence = tar.extractfile("package/LICENSE")
                assert licence is not None
                (OUT / "OFL-NotoSans.txt").write_bytes(licence.read())
            archive.unlink()


if __name__ == "__main__":
    main()
