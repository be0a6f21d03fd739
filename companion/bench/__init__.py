"""`village-companion bench`: speed and memory figures, printed and never asserted. Tools, not
the product: nothing under companion/ but the command line imports this package.

* `main` — the command (`run_bench`): engine, replay, store and resume figures, and the
  hand-over to the others;
* `store` — saving and listing with many stored sessions against a naive TinyDB layout;
* `history` — the history list and statistics at 100 / 1,000 / 10,000 games (`fixture` writes
  those games), and `home` — Home's history on the live app;
* `startup` — launch to first HTTP 200 against a bare Flet app;
* `taps` — tap latency in headless Chromium; `tables` — table mode with many clients
  (raw Flet protocol over WebSockets).
"""
