"""What every game's board is made of: the board types, the shared frame and Discord's limits
(:mod:`bot.boards.common`), and the rules texts as embeds (:mod:`bot.boards.rulebook`).

Each game's own board lives in its module under :mod:`bot.games`.
"""
