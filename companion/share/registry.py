"""Who may join the shared game, and who has: the invitation and the members, in memory.

API (all methods thread-safe; Flet handlers and the ASGI guard call them from different
threads):

* `ShareRegistry.open(game_id) -> Invitation` starts (or restarts) sharing one game: a new
  one-time join token for the QR code and a new join code for typing; the previous ones stop
  working. Members already joined stay.
* `current() -> Invitation | None` is the invitation to show now (None: sharing is off).
  A join token works once: when a phone has used it, a fresh token replaces it (the code
  stays), so the host screen must show the *current* one — read `current()` whenever a
  `subscribe(callback)` callback fires (it gets the new invitation, or None when sharing
  stopped) and redraw the QR code. Callbacks fire for the members' changes as well (a
  phone joined, chose a seat, was made watch-only or removed), with the current invitation,
  so the host's list of phones stays current.
* `join_by_token(token, address)` / `join_by_code(code, address)` -> `Joined` (the new
  `Member` and its member token, which goes into the phone's cookie and nowhere else) or a
  `Refusal`. Wrong codes are rate-limited by the caller (`ratelimit.CodeRateLimiter`).
* `member_for(member_token) -> Member | None`: the member a cookie belongs to.
* `choose_seat(member_id, seat)`, `set_watch_only(member_id, flag)`, `remove(member_id)`,
  `members(game_id)`, `member(member_id)`: the host's and the seat picker's operations.
* `own_seat_only` / `set_own_seat_only(flag)`: the host's setting "phones may act only
  for their own seat" (off: a phone asks before acting for another seat).
* `close() -> list[str]`: stop sharing. Every invitation and member token is invalid from
  then on; returns the member ids so the caller can close their connections.

Member tokens are never stored, only their SHA-256 digests: a memory dump or a log of this
object cannot be replayed as a cookie.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum

# No 0/O, 1/I/L: the code is read off a screen across the table and typed on a phone.
JOIN_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
JOIN_CODE_LENGTH = 6
# A table has a handful of phones; the cap keeps a leaked code from filling memory.
MAX_MEMBERS = 32

Listener = Callable[["Invitation | None"], None]


@dataclass(frozen=True)
class Invitation:
    """What the host's screen shows: `join_token` goes into the QR code's URL
    (`/join?t=<token>`), `join_code` is typed on the join page."""

    game_id: str
    join_token: str
    join_code: str


@dataclass(frozen=True)
class Member:
    """A joined phone. `member_id` is short and not secret (shown to the host, put in the
    WebSocket's user agent); `seat` is a player's seat index or None (watching);
    `watch_only` is the host's decision and wins over the seat."""

    member_id: str
    game_id: str
    address: str
    seat: int | None = None
    watch_only: bool = False


@dataclass(frozen=True)
class Joined:
    """A successful join: `member_token` is the secret for the phone's cookie. It exists
    only in this object; the registry keeps its digest."""

    member: Member
    member_token: str


class Refusal(StrEnum):
    SHARING_OFF = "off"  # no invitation open
    INVALID_TOKEN = "token"  # unknown, already used or superseded join token
    WRONG_CODE = "code"
    FULL = "full"  # MAX_MEMBERS reached


def normalize_code(text: str) -> str:
    """A typed code in the alphabet's spelling: case, spaces and dashes do not matter."""
    return "".join(ch for ch in text.upper() if ch not in " -\t")


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8")).digest()


def _same(a: str, b: str) -> bool:
    # compare_digest wants ASCII str or bytes; a request may carry any text.
    return hmac.compare_digest(a.encode("utf-8"), b.encode("utf-8"))


class ShareRegistry:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._invitation: Invitation | None = None
        self._members: dict[str, Member] = {}  # member id -> member, in join order
        self._by_digest: dict[bytes, str] = {}  # sha256(member token) -> member id
        self._digest_of: dict[str, bytes] = {}  # member id -> sha256(member token)
        self._listeners: list[Listener] = []
        self._own_seat_only = False  # the host's setting (see set_own_seat_only)

    # ---- the invitation -----------------------------------------------------------------
    def open(self, game_id: str) -> Invitation:
        with self._lock:
            code = "".join(secrets.choice(JOIN_CODE_ALPHABET)
                           for _ in range(JOIN_CODE_LENGTH))
            invitation = Invitation(game_id, secrets.token_urlsafe(32), code)
            self._invitation = invitation
        self._notify(invitation)
        return invitation

    def current(self) -> Invitation | None:
        with self._lock:
            return self._invitation

    @property
    def sharing(self) -> bool:
        return self.current() is not None

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call `listener(invitation or None)` after every change of the invitation (opened,
        token used, closed) or of the members, on the thread that changed it. Returns the
        unsubscriber."""
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    def _notify(self, invitation: Invitation | None) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:  # outside the lock: a listener may call back in
            listener(invitation)

    # ---- joining ------------------------------------------------------------------------
    def join_by_token(self, token: str, address: str) -> Joined | Refusal:
        with self._lock:
            invitation = self._invitation
            if invitation is None:
                return Refusal.SHARING_OFF
            if not _same(token, invitation.join_token):
                return Refusal.INVALID_TOKEN
            if len(self._members) >= MAX_MEMBERS:
                return Refusal.FULL
            # One-time: the next phone needs the QR code of the fresh token.
            fresh = replace(invitation, join_token=secrets.token_urlsafe(32))
            self._invitation = fresh
            joined = self._add_member(invitation.game_id, address)
        self._notify(fresh)
        return joined

    def join_by_code(self, code: str, address: str) -> Joined | Refusal:
        with self._lock:
            invitation = self._invitation
            if invitation is None:
                return Refusal.SHARING_OFF
            if not _same(normalize_code(code), invitation.join_code):
                return Refusal.WRONG_CODE
            if len(self._members) >= MAX_MEMBERS:
                return Refusal.FULL
            joined = self._add_member(invitation.game_id, address)
        self._notify(invitation)
        return joined

    def _add_member(self, game_id: str, address: str) -> Joined:
        member_id = secrets.token_hex(4)
        while member_id in self._members:
            member_id = secrets.token_hex(4)
        token = secrets.token_urlsafe(32)
        member = Member(member_id, game_id, address)
        self._members[member_id] = member
        digest = _digest(token)
        self._by_digest[digest] = member_id
        self._digest_of[member_id] = digest
        return Joined(member, token)

    # ---- members ------------------------------------------------------------------------
    def member_for(self, member_token: str) -> Member | None:
        """The member whose token this is. The dict lookup is by digest, so its timing says
        nothing about the token; the final comparison is constant-time as well."""
        digest = _digest(member_token)
        with self._lock:
            member_id = self._by_digest.get(digest)
            if member_id is None:
                return None
            if not hmac.compare_digest(self._digest_of[member_id], digest):
                return None
            return self._members.get(member_id)

    def member(self, member_id: str) -> Member | None:
        with self._lock:
            return self._members.get(member_id)

    def members(self, game_id: str) -> list[Member]:
        with self._lock:
            return [m for m in self._members.values() if m.game_id == game_id]

    def choose_seat(self, member_id: str, seat: int | None) -> Member | None:
        """Seat `seat` (a player's index) or None (watching). The app checks that the seat
        exists and decides whether two phones may share one. None: no such member."""
        with self._lock:
            member = self._members.get(member_id)
            if member is None:
                return None
            self._members[member_id] = member = replace(member, seat=seat)
        self._notify(self.current())
        return member

    def set_watch_only(self, member_id: str, watch_only: bool) -> Member | None:
        """The host lets a phone only watch (True) or act for its seat again (False)."""
        with self._lock:
            member = self._members.get(member_id)
            if member is None:
                return None
            self._members[member_id] = member = replace(member, watch_only=watch_only)
        self._notify(self.current())
        return member

    @property
    def own_seat_only(self) -> bool:
        with self._lock:
            return self._own_seat_only

    def set_own_seat_only(self, flag: bool) -> None:
        """The host's setting: True refuses a phone's action for another player's seat;
        False (the default) lets the phone act for it once it has said yes."""
        with self._lock:
            if self._own_seat_only == flag:
                return
            self._own_seat_only = flag
        self._notify(self.current())

    def remove(self, member_id: str) -> bool:
        """The member's token stops working at once. False: no such member."""
        with self._lock:
            if self._members.pop(member_id, None) is None:
                return False
            self._by_digest.pop(self._digest_of.pop(member_id), None)
        self._notify(self.current())
        return True

    def close(self) -> list[str]:
        """Stop sharing: no invitation, no member. Returns the removed members' ids."""
        with self._lock:
            removed = list(self._members)
            self._members.clear()
            self._by_digest.clear()
            self._digest_of.clear()
            self._invitation = None
        self._notify(None)
        return removed
