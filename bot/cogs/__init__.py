"""The cogs: one concern each, loaded by ``bot.client`` (``EXTENSIONS``)."""
