"""Where a family member stands, typed.

A member's location is stored as one string (``"council:3"``, ``"chronicle:farm"``,
``"supply"``) so stored games and golden logs stay as they are; this module is the one
place that builds and reads that string. `Loc.parse` turns it into a place and a spot and
refuses anything malformed, so a screen or rule never splits strings by hand.

Places without a spot: supply, farmyard, bag, graveyard, removed. With one:
``workshop:<building>``, ``council:<level>``, ``church:<level>``, ``travel:<city>``,
``chronicle:<section>``, and Karla's ``karla:side`` / ``karla:building``. Which spots
exist (how many council levels, which buildings) is component data, checked by the rules
(`rules.corrections.location_problem`), not here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

Place = Literal["supply", "farmyard", "bag", "graveyard", "removed", "workshop", "council",
                "church", "travel", "chronicle", "karla"]
PLACES: frozenset[str] = frozenset(get_args(Place))
WITH_SPOT: frozenset[str] = frozenset({"workshop", "council", "church", "travel",
                                       "chronicle", "karla"})
KARLA_SPOTS: frozenset[str] = frozenset({"side", "building"})

SUPPLY = "supply"
FARMYARD = "farmyard"
BAG = "bag"
GRAVEYARD = "graveyard"
REMOVED = "removed"
KARLA_SIDE = "karla:side"  # beside her board
KARLA_BUILDING = "karla:building"  # on the church building


@dataclass(frozen=True)
class Loc:
    place: Place
    spot: str | None = None

    @classmethod
    def parse(cls, text: str) -> Loc:
        """The location `text` names; ValueError saying what is wrong otherwise."""
        place, sep, spot = text.partition(":")
        if place not in PLACES:
            raise ValueError(f"{text!r}: the place must be one of {', '.join(sorted(PLACES))}")
        if place in WITH_SPOT:
            if not spot:
                raise ValueError(f"{text!r}: {place} needs a spot ({place}:<spot>)")
            if place == "karla" and spot not in KARLA_SPOTS:
                raise ValueError(f"{text!r}: Karla's members stand at karla:side or "
                                 "karla:building")
            return cls(place, spot)  # type: ignore[arg-type]
        if sep:
            raise ValueError(f"{text!r}: {place} takes no spot")
        return cls(place)  # type: ignore[arg-type]

    @property
    def level(self) -> int:
        """The level or city number of a council, church or travel spot."""
        if self.place not in ("council", "church", "travel") or self.spot is None:
            raise ValueError(f"{self} has no level")
        return int(self.spot)

    def __str__(self) -> str:
        return self.place if self.spot is None else f"{self.place}:{self.spot}"


def is_location(text: str) -> bool:
    try:
        Loc.parse(text)
    except ValueError:
        return False
    return True


def workshop_spot(building: str) -> str:
    return f"workshop:{building}"


def council_spot(level: int) -> str:
    return f"council:{level}"


def church_spot(level: int) -> str:
    return f"church:{level}"


def travel_spot(city: int | str) -> str:
    return f"travel:{city}"


def chronicle_spot(section: str) -> str:
    return f"chronicle:{section}"
