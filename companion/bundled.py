"""Where the app's bundled data folders are: `locales/` (the .po catalogues) and `assets/`
(icons and the web client's CJK fonts).

In the repository both sit at the top level, beside `companion/`. setup.py maps them into
the package as `companion.locales` and `companion.assets` (setuptools `package_dir`), so a
wheel carries them inside `companion/` and an editable install (`pip install -e .`) finds
them where they are; either way they are found through `importlib.resources`. A checkout
that is not installed at all (`flet build` copies the repository as the app, and tests or
`python -m companion` can run from a bare checkout) has no such subpackages: the folders
are then taken from beside `companion/`.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Literal

BundledFolder = Literal["locales", "assets"]


def bundled_dir(name: BundledFolder) -> Path:
    """The directory of `companion.<name>` on disk (Flet serves assets from a real path)."""
    try:
        root = resources.files(f"companion.{name}")
    except ModuleNotFoundError:  # not installed: the repository's own top-level folder
        return Path(__file__).resolve().parent.parent / name
    if isinstance(root, Path):
        return root
    # Only a zip import gives something else; the app needs real files (Flet serves them).
    raise RuntimeError(f"companion.{name} is not a folder on disk: {root!r}")
