"""The 32 Small City promise cards, loaded from promises.json (seed L264-L296).

Card texts come in en, zh-Hant (the seed's words), ko and de.  The seed does not say which
normal card lies in the 6-, 12- or 18-vote pile, so a card's `value` is None and the value
of a kept card is given by the player when scoring.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from companion.small_city.data import (
    PROMISE_FAILED,
    PROMISE_FULFILLED,
    PROMISE_VALUES,
)

Language = Literal["en", "zh-Hant", "ko", "de"]


class Provenance(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    source: Literal["seed"]
    file: str
    section: str
    line: int  # line of the card in the seed file
    pile_line: int  # line that says which pile (normal/special) the card belongs to


class CardText(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    en: str
    zh_hant: str = Field(alias="zh-Hant")
    ko: str
    de: str


class PromiseCard(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    number: int
    pile: Literal["normal", "special"]
    value: int | None  # 6/12/18 when known; the seed does not print it
    text: CardText
    provenance: Provenance

    def text_in(self, language: Language) -> str:
        return self.text.zh_hant if language == "zh-Hant" else str(getattr(self.text, language))


class PromiseDeck(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    about: str
    seed: str
    value_note: str
    votes_note: str
    cards: list[PromiseCard]


@cache
def promise_deck() -> PromiseDeck:
    raw = resources.files("companion.small_city").joinpath("promises.json").read_text("utf-8")
    return PromiseDeck.model_validate(json.loads(raw))


def promise_card(number: int) -> PromiseCard:
    for card in promise_deck().cards:
        if card.number == number:
            return card
    raise KeyError(f"no promise card {number}; cards are numbered 1 to 32")


def promise_votes(value: int, fulfilled: bool) -> int:
    """Votes for one kept promise at game end (L259-L260): +6/+12/+18 or -3/-6/-12."""
    if value not in PROMISE_VALUES:
        raise ValueError(f"a promise is worth 6, 12 or 18, not {value}")
    return PROMISE_FULFILLED[value] if fulfilled else PROMISE_FAILED[value]
