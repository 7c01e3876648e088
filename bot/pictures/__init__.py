"""Pictures of cards: card faces drawn with Pillow, their upload as application emoji, and a
picture of each game's table. Pure drawing, no Discord calls, except ``emoji.sync_card_emoji``.

- ``faces``: the 52 cards, two jokers and a back, as 128×128 emoji or smaller table cards.
- ``emoji``: write the faces to a folder; sync them to the application's emoji.
- ``table``: a PNG of a game's table from the engine's view, cached by what is drawn.
"""
