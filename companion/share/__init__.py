"""Table mode (issue 12): phones at the table join one shared game over the LAN.

Pure Python, no Flet import. The modules, each documented at its top:

* `registry` — `ShareRegistry`: the invitation (one-time join token, short join code) and
  the joined phones (members), in memory.
* `ratelimit` — `CodeRateLimiter`: wrong join codes per client address, then a lockout.
* `qr` — the join URL as a QR code PNG / data URI for the host's screen.
* `addresses` — the LAN addresses this machine could share on (for the CLI).

The web server's half, `companion.web.share_guard.ShareGuard` (ASGI middleware that lets
only the host and joined members reach the app, serves the join page and tags a member's
WebSocket), builds on `registry` and `ratelimit`.
"""
