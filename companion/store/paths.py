"""Where the store lives on disk."""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_data_dir

APP_NAME = "village-companion"
ENV_DATA_DIR = "VILLAGE_COMPANION_DATA_DIR"
# Set by Flet in packaged (desktop/mobile) apps to the app's private storage folder.
ENV_FLET_DATA = "FLET_APP_STORAGE_DATA"


def resolve_data_dir(cli_value: str | None = None) -> Path:
    """Pick the data directory and create it.

    Priority: `--data-dir` > $VILLAGE_COMPANION_DATA_DIR > $FLET_APP_STORAGE_DATA >
    the platform's per-user data folder. Empty values count as unset.
    """
    for candidate in (cli_value, os.environ.get(ENV_DATA_DIR), os.environ.get(ENV_FLET_DATA)):
        if candidate:
            path = Path(candidate).expanduser()
            break
    else:
        # appauthor=False: avoid Windows' "<author>\<app>" double folder.
        path = Path(user_data_dir(APP_NAME, appauthor=False))
    # Absolute, so a later chdir cannot move the store.
    path = path.absolute()
    path.mkdir(parents=True, exist_ok=True)
    return path
