"""Dungeon Deck's screens as Discord draws them: scenarios, an HTML renderer, screenshots."""
