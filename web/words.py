"""The browser table's own words: every word the client shows that is not in the server's
data (buttons, headings, aria-label templates), marked for the catalogs and served in the
player's language by ``GET /api/me`` as ``words`` (``{key: text}``).

The keys are the contract with the client (``web/client/``): the client looks each one up
and never shows a hard-coded English word. A key's text may carry ``{name}`` fields, filled
by the client (``{card}``: a card's name, ``{action}``: a move's label, ``{n}``/``{total}``:
numbers, ``{game}``: a game's title, ``{day}``: a day). Add a key here before using it there.
"""

from __future__ import annotations

from rules.words import N_

#: key -> English template (translated when served).
WORDS: dict[str, str] = {
    # The page and its tabs
    "app_title": N_("Dungeon Deck"),
    "retry": N_("Try again"),
    "close": N_("Close"),
    "games": N_("Games"),
    "practice": N_("Practice"),
    "resume_line": N_("Resume: {what}"),
    "boards": N_("Boards"),
    "stats": N_("Stats"),
    "replay": N_("Replay"),
    "rules": N_("Rules"),
    "verify": N_("Verify"),
    # The table
    "your_move": N_("Your move"),
    "undo": N_("Undo"),
    "resign": N_("Resign"),
    "resign_confirm": N_("Resign this run? It ends as lost."),
    "resign_yes": N_("Yes, resign"),
    "resign_no": N_("Keep playing"),
    "hint": N_("Hint"),
    "hint_line": N_("A good move: {move} — {reason}"),
    "run_over": N_("This run is over."),
    "last_move": N_("Last move"),
    "last_move_line": N_("Last move: {action}"),
    "deck": N_("Deck"),
    "room": N_("Room"),
    "hand": N_("Hand"),
    "health": N_("Health"),
    "shield": N_("Shield"),
    "weapon": N_("Weapon"),
    "torches": N_("Torches"),
    "score": N_("Score"),
    "daily_number": N_("Daily #{n}"),
    "practice_run": N_("Practice run"),
    "play": N_("Play"),
    "variant": N_("Variant"),
    "daily_played": N_("Played"),
    "your_runs": N_("Your unfinished runs"),
    "choose_for": N_("Which move for {card}?"),
    "shortcuts": N_("Keys: Tab or arrows choose a move, Enter plays it, U undoes, H hints."),
    "card_slot": N_("An empty place"),
    "joker_red": N_("Red joker"),
    "joker_black": N_("Black joker"),
    # Each game's table: its parts' names
    "dungeon": N_("Dungeon"),
    "xp": N_("XP"),
    "hit_points": N_("Hit points"),
    "encounter": N_("Encounter"),
    "phase": N_("Phase"),
    "phase_delve": N_("Delving"),
    "phase_retreat": N_("Retreating"),
    "phase_over": N_("Over"),
    "this_turn": N_("This turn"),
    "piles": N_("Monsters"),
    "pile": N_("Pile {n}"),
    "reserve": N_("Reserve"),
    "talon": N_("Power deck"),
    "slain": N_("Slain"),
    "shield_last": N_("last blocked {n}"),
    "weapon_last": N_("last slew {n}"),
    "hidden_cards": N_("+{n}"),
    # Screen-reader labels (aria-label templates)
    "aria_card_move": N_("{card}: {action}"),
    "aria_card_no_move": N_("{card}, cannot be played now"),
    "aria_face_down": N_("A face-down card"),
    "aria_table": N_("The {game} table"),
    "aria_moves": N_("Legal moves"),
    # A count without a plural form to choose: "{name}, cards: {n}" reads right for any n.
    "aria_pile": N_("{name}, cards: {n}"),
    # Boards
    "boards_heading": N_("The day's boards"),
    "todays_board": N_("Today's board"),
    "scope_global": N_("Everyone"),
    "scope_server": N_("This server"),
    "rank": N_("Rank"),
    "player": N_("Player"),
    "result": N_("Result"),
    "you": N_("You"),
    "previous_page": N_("Previous page"),
    "next_page": N_("Next page"),
    "page_of": N_("Page {n} of {total}"),
    "no_lines": N_("Nobody has finished this board yet."),
    "day": N_("Day"),
    "previous_day": N_("Previous day"),
    "next_day": N_("Next day"),
    # The daily's commitment and /verify
    "commitment": N_("Commitment"),
    "commitment_help": N_("The deal's fingerprint, published before anyone plays: once the "
                          "day closes, its seed shows the deal was fixed in advance."),
    "seed": N_("Seed"),
    "seed_hidden": N_("The seed is shown once the day's boards close."),
    # Stats
    "stats_heading": N_("Your stats"),
    "stats_finished": N_("Runs finished"),
    "stats_wins": N_("Wins"),
    "stats_win_rate": N_("Win rate"),
    "stats_dailies": N_("Dailies played"),
    "stats_best": N_("Best"),
    "stats_average": N_("Average"),
    "stats_current_streak": N_("Current streak"),
    "stats_longest_streak": N_("Longest streak"),
    "stats_freezes": N_("Streak freezes"),
    "stats_hinted": N_("Runs with hints"),
    "stats_recent": N_("Recent days"),
    "stats_frozen": N_("frozen"),
    "stats_missed": N_("not played"),
    "percent": N_("{n}%"),
    # The replay viewer
    "replay_heading": N_("Replay"),
    "first": N_("First"),
    "previous": N_("Back"),
    "next": N_("Forward"),
    "last": N_("Last"),
    "step_of": N_("Move {n} of {total}"),
    "turning_point_line": N_("Turning point: {text}"),
    "go_to_turning_point": N_("Go to the turning point"),
    "no_replays": N_("Replays open once the day's boards have closed."),
    # Errors the client shows by itself
    "network_error": N_("The table cannot reach Dungeon Deck. Check your connection and try "
                        "again."),
}
