"""The join page's words: every share.* key it uses is in the catalogues, in every
language, and share.po holds nothing it does not use."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion import share
from companion.i18n import SUPPORTED_LANGUAGES, locales_dir

SHARE_DIR = Path(share.__file__).resolve().parent
# The join page (companion/web) and the app's table-mode screens keep their words in
# share.po as well.
WEB_DIR = SHARE_DIR.parent / "web"
TABLE_MODE_DIR = SHARE_DIR.parent / "app" / "table_mode"


def keys_in_code() -> set[str]:
    found = set()
    for path in [*SHARE_DIR.glob("*.py"), *WEB_DIR.glob("*.py"),
                 *TABLE_MODE_DIR.glob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and node.value.startswith("share.") and " " not in node.value):
                found.add(node.value)
    return found


def keys_in_catalogue(lang: str) -> set[str]:
    with (locales_dir() / lang / "LC_MESSAGES" / "share.po").open("rb") as fh:
        # a plural entry's id is (msgid, msgid_plural): the key is its msgid
        return {str(m.id[0] if m.pluralizable else m.id) for m in read_po(fh)
                if m.id and m.string}


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_share_catalogue_matches_the_code(lang: str) -> None:
    used = keys_in_code()
    catalogue = keys_in_catalogue(lang)
    assert used and used == catalogue
