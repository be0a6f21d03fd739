"""Every engine note and game term the app shows has a message in every language."""

from __future__ import annotations

import pytest

from companion.i18n import SUPPORTED_LANGUAGES, load_catalogue, placeholders
from companion.village.components import load_components
from companion.village.notes import EN

TERMS = {
    "colour": ["brown", "pink", "orange", "green", "plague", "red", "yellow", "blue", "white",
               "purple"],
    "section": ["farm", "crafts", "council", "church", "travel"],
    "side": ["top", "bottom"],
}


def _term_keys() -> list[str]:
    comp = load_components("big-box")
    keys = [f"space.{s}" for s in comp.v("action_spaces")] + ["space.well"]
    keys += [f"goods.{g}" for g in comp.v("goods_types")]
    keys += [f"{ns}.{v}" for ns, values in TERMS.items() for v in values]
    return keys


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_every_engine_note_has_a_message_with_the_same_placeholders(lang: str) -> None:
    cat = load_catalogue(lang)
    missing = [k for k in EN if f"note.{k}" not in cat]
    assert not missing, f"{lang} lacks note.{missing}"
    wrong = [k for k, text in EN.items() if placeholders(cat[f"note.{k}"]) != placeholders(text)]
    assert not wrong, f"{lang}: placeholders differ from the engine's for {wrong}"


@pytest.mark.parametrize("lang", SUPPORTED_LANGUAGES)
def test_every_game_term_is_named(lang: str) -> None:
    cat = load_catalogue(lang)
    missing = [k for k in _term_keys() if k not in cat]
    assert not missing, f"{lang} lacks {missing}"


def test_seed_terms_are_used_in_chinese_and_korean() -> None:
    zh, ko = load_catalogue("zh_Hant"), load_catalogue("ko")
    assert "編年史" in zh["section.farm"] or "編年史" in zh["note.to_chronicle"]
    assert "公墓" in zh["note.to_graveyard"] and "羽毛筆" in zh["note.quill_passed"]
    assert "무명무덤" in ko["note.to_graveyard"] and "연대기" in ko["note.to_chronicle"]
