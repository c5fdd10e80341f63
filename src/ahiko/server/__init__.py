"""The ASGI server: HTTP API (accounts, sessions, wallet), settings and the `serve`/`admin`
commands. ``create_app(settings)`` in ``app.py`` builds the application."""
