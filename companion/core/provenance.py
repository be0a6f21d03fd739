"""A printed game value together with where it comes from.

`seed` = the rulebook we ship a copy of (with a reference), `source` = an outside reference,
`estimate` = our guess where no source gives the value, `user` = corrected by the user.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

Provenance = Literal["seed", "source", "estimate", "user"]


class Provenanced(BaseModel):
    model_config = ConfigDict(extra="forbid")

    value: Any
    provenance: Provenance
    ref: str

    @property
    def needs_confirmation(self) -> bool:
        return self.provenance == "estimate"
