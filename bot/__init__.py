"""Dungeon Deck's Discord bot: the adapter (commands, buttons, boards) above ``core``."""
