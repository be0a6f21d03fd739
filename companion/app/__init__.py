"""The Flet app shell: routing, Home, Settings, and helpers the game screens build on.

Entry point: `companion.app.launch.run_app`. Screens register in `companion.app.routes`.
"""
