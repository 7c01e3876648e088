"""Dungeon Deck's Discord bot: adapter, service and store above the pure `rules` engines."""
