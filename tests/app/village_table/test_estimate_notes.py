"""Why a value is an estimate: explained in the reader's language, the rulebook's sentence
shown as a quote exactly as printed, with its translation (none for its own language)."""

from __future__ import annotations

import pytest

from companion.app.village.wizard.calibration import load_estimates
from companion.app.village.wizard.estimate_notes import (
    NOTES,
    RULEBOOK_LABELS,
    RULEBOOK_LANGUAGE,
    note_for,
)
from companion.i18n import SUPPORTED_LANGUAGES, load_catalogue
from companion.store.memory import MemoryStore
from companion.village.components import load_components

from ..harness import AppHarness, FakeClient
from ..test_no_english import inside, wizard_next
from .conftest import tap, texts_under


@pytest.mark.parametrize("edition", ["big-box", "2011"])
def test_every_estimate_the_check_shows_has_a_translated_note(edition: str) -> None:
    shown = {e.key for solo in (True, False) for seats in (2, 3, 4)
             for e in load_estimates(MemoryStore(), edition, solo=solo,  # type: ignore[arg-type]
                                     seats=seats)}
    assert shown
    missing = sorted(key for key in shown if note_for(edition, key) is None)
    assert not missing, f"{edition}: estimates without a translated note: {missing}"


def test_each_quote_is_the_rulebook_sentence_the_data_file_cites() -> None:
    refs = {edition: {k: v.ref for k, v in load_components(edition).values.items()}
            for edition in ("big-box", "2011")}
    for (edition, key), note in NOTES.items():
        for quote in note.quotes:
            # As printed (the data file's note may cut a quote with "..." too).
            assert quote.text in refs[edition][key], (edition, key, quote.text)
            assert quote.rulebook in RULEBOOK_LANGUAGE and quote.rulebook in RULEBOOK_LABELS


def test_notes_and_translations_exist_in_every_language() -> None:
    keys = {note.why for note in NOTES.values()} | {
        q.translation for note in NOTES.values() for q in note.quotes}
    for lang in SUPPORTED_LANGUAGES:
        catalogue = load_catalogue(lang)
        assert not sorted(k for k in keys if not catalogue.get(k)), lang
    # A quote's translation into its own rulebook's language is the sentence itself.
    for note in NOTES.values():
        for q in note.quotes:
            assert load_catalogue(RULEBOOK_LANGUAGE[q.rulebook])[q.translation] == q.text


def to_the_check(app: AppHarness) -> list[str]:
    """A 2-player Big Box game's component check, in whatever language the app speaks;
    the texts of the first estimate's note (the setup card)."""
    app.set_route("/new/village")
    tap(app, "count-2")
    wizard_next(app)
    for seat, name in enumerate(["Ann", "Bo"]):
        app.set_value(inside(app.find(identifier=f"seat-name-{seat}")), name)
    wizard_next(app)
    wizard_next(app)
    tap(app, "estimate-tab-setup_cards")  # the note opens with its value
    return texts_under(app, "why-setup_cards")


QUOTE = "“遊戲設置卡會指示你在每輪開始時，從供應區拿取對應數量及顏色的方塊放入綠色布袋中”"


@pytest.mark.parametrize(("locale", "why", "source", "translated"), [
    ("en-GB", "Why an estimate: The setup cards' numbers",
     "— Big Box rulebook (Traditional Chinese), 階段1 - 填滿行動格",
     "In English: The setup card tells you how many cubes"),
    ("de-DE", "Warum geschätzt: Die Zahlen der Aufbaukarten",
     "— Regel der Big Box (traditionelles Chinesisch), 階段1 - 填滿行動格",
     "Auf Deutsch: Die Aufbaukarte zeigt dir, wie viele Würfel"),
    ("ko-KR", "추정인 이유: 셋업카드의 숫자는",
     "— 빅 박스 규칙서 (번체 중국어), 階段1 - 填滿行動格",
     "우리말로: 셋업카드는 매 라운드 시작 시"),
    ("zh-TW", "為什麼是估計值：遊戲設置卡上的數字",
     "— 大盒版規則書（繁體中文），階段1 - 填滿行動格", None),  # the rulebook's own language
])
def test_the_setup_card_note_in_the_readers_language(
        store: MemoryStore, locale: str, why: str, source: str, translated: str | None) -> None:
    with AppHarness(store, client=FakeClient(locales=(locale,))) as app:
        texts = to_the_check(app)
    assert any(t.startswith(why) for t in texts), texts
    assert QUOTE in texts and source in texts
    if translated is None:
        assert not any(t.startswith("中文翻譯：") for t in texts), texts
    else:
        assert any(t.startswith(translated) for t in texts), texts
