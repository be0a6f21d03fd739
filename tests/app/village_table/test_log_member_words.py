"""The log names a player's own member naturally ("Ann trained a number-1 member in the
Wainwright", not "Ann trained Ann, number 1 …") and someone else's by owner; members are
"number N" (the rulebook's 編號) everywhere in English, 編號 in Chinese."""

from __future__ import annotations

from typing import Any

import pytest

from companion.app.village.log.model import LogEntry
from companion.app.village.log.words import describe
from companion.store.memory import MemoryStore
from companion.village.service import VillageService

from .conftest import make_game
from .test_log import words_ctx


def _say(language: str, body: dict[str, Any], actor: int | None = 0) -> str:
    store = MemoryStore()
    session = VillageService(store).open(make_game(store))
    return describe(words_ctx(language), session.state,
                    LogEntry(seq=0, group=1, at="", body=body, actor=actor))


TRAIN = {"type": "crafts_train", "building": "wainwright", "train_member": "red-1a",
         "produce": False}


def test_own_member_trained_reads_naturally() -> None:
    assert _say("en", TRAIN) == "Ann trained a number-1 member in the Wainwright"
    assert _say("en", {"type": "council_enter", "member": "red-1a"}) == \
        "Ann put a number-1 member on the council"


def test_someone_elses_member_is_named_with_its_owner() -> None:
    assert _say("en", {"type": "move_member", "member": "blue-2a", "to": "farmyard"}) \
        .startswith("Bo's number-2 member moved to")
    assert _say("en", {"type": "choose_death", "member": "red-1a"}) == \
        "Ann's number-1 member died"


@pytest.mark.parametrize(("language", "word"), [("zh_Hant", "編號1"), ("ko", "1세대"),
                                               ("de", "Generation 1")])
def test_every_language_names_the_member_once(language: str, word: str) -> None:
    text = _say(language, TRAIN)
    assert word in text and text.count("Ann") == 1, text
