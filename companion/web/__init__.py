"""The web server's own pieces: pure ASGI, no Flet import, and nothing of `companion.app`.

The app (`companion.app.launch`) serves Flet's ASGI app wrapped in these layers, outermost
first: `server_guard.HostOriginGuard` (only the app's own page may talk to the server),
`share_guard.ShareGuard` in table mode (only the host and the phones that joined; it serves
`join_page`), and `connection_banner.ConnectionBanner` (the "connection lost" banner in the
app page, whose head `manifest.brand_page` names the app). `fonts` lists the web fonts the
page and the app share; `asgi` holds the small helpers they all use (headers, 403s,
Accept-Language).
"""
