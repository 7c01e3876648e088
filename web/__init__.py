"""The Activity adapter: an aiohttp application over the core that serves the browser table
(``web/dist/``, built from ``web/client/``) and its JSON API (docs/web-api.md).

``web.serve.start(core, config)`` runs it inside the bot's process; ``python -m web`` runs it
on its own. It sits beside ``bot/`` above ``core/`` and never imports ``bot`` or ``discord``.
"""
