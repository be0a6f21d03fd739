"""Game terms as the seeds name them, the same everywhere: the Big Box rulebook for 繁體中文
(seed 000) and the 2011 Korean rules for 한국어 (seed 004)."""

from __future__ import annotations

import re

import pytest

from .test_catalogues import raw_catalogue

# (English word in the key's English text, the seed's term the translation must use)
SEED_TERMS = {
    "ko": [(r"\bquill", "다리"), (r"\bchurch", "성당"), (r"\bchronicle", "연대기"),
           (r"\bgraveyard", "무명무덤"), (r"\bmass\b", "미사"), (r"\bmonks?\b", "수도사"),
           (r"\bfate tiles?\b", "운명 타일")],
    "zh_Hant": [(r"\bquill", "羽毛筆"), (r"\bchronicle", "村莊編年史"), (r"\bgraveyard", "公墓"),
                (r"\bmass\b", "彌撒"), (r"\bmonks?\b", "僧侶"), (r"\bfate tiles?\b", "命運板塊")],
}
# Words the seeds do not use for these things (깃펜 "quill pen", 교회 "church" for the
# action space; the chronicle is 村莊編年史, never the bare 編年史).
NOT_SEED = {"ko": [re.compile("깃펜"), re.compile("교회")],
            "zh_Hant": [re.compile("(?<!村莊)編年史")]}
# Translations that say it with the seed's other words (ko: 직위 = the church levels).
PARAPHRASED = {("ko", "note.bonus_rightmost"), ("ko", "note.bonus_still_tied"),
               ("ko", "phase.mass_advance")}


def village_keys(catalogue: dict[str, tuple[str, bool]]) -> dict[str, str]:
    """Village texts only: the other games' assistants have their own terms."""
    return {k: text for k, (text, _) in catalogue.items() if not k.startswith("games.")}


@pytest.mark.parametrize("lang", sorted(SEED_TERMS))
def test_every_text_naming_a_game_term_uses_the_seed_term(lang: str) -> None:
    english, other = village_keys(raw_catalogue("en")), village_keys(raw_catalogue(lang))
    problems = [f"{key}: {other[key]!r} lacks {term}"
                for pattern, term in SEED_TERMS[lang]
                for key, text in english.items()
                if re.search(pattern, text, re.IGNORECASE) and key in other
                and term not in other[key] and (lang, key) not in PARAPHRASED]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", sorted(NOT_SEED))
def test_no_other_word_for_a_seed_term(lang: str) -> None:
    problems = [f"{key}: {text!r}" for key, text in village_keys(raw_catalogue(lang)).items()
                for pattern in NOT_SEED[lang] if pattern.search(text)]
    assert not problems, "\n".join(problems)


def test_the_quill_is_one_word_in_korean() -> None:
    ko = raw_catalogue("ko")
    for key in ("village.form.fate.quill", "village.karla.tile_quill",
                "village.log.draw.fate_quill", "note.karla_fate_quill", "note.quill_passed"):
        assert "다리" in ko[key][0], key
