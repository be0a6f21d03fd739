"""Table mode (issue 12), the app side: phones at the table join one shared game.

* `sharing` — `TableShare`, the one-per-process share state the app sees (registry, guard,
  the LAN address) and the server set-up for `village-companion --share`.
* `confine` — a joined phone's router: its one game only.
* `acting` — who may act (watch-only phones may not) and who did it (the log's "by").
* `host_screen`, `seat_screen` — the host's QR screen and the phone's seat picker.
* `paths`, `routes` — their routes.
"""
