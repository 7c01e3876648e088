// Every word the page shows comes from the server: `/api/me`'s `words` table (web/words.py),
// in the player's language. These are the keys the client reads; `t` fills `{field}`s. A key
// the server does not send shows as the key itself, so a missing word is seen, never guessed.

export const WORD_KEYS = [
  // keys web/words.py already has (web-server branch)
  "app_title", "retry", "close", "games", "practice",
  "resume_line", "boards", "stats", "replay", "rules", "verify", "your_move", "undo", "resign",
  "resign_confirm", "resign_yes", "resign_no", "hint", "hint_line", "run_over",
  "last_move", "last_move_line", "deck", "room", "hand", "health", "shield", "weapon", "torches",
  "score", "daily_number", "practice_run", "aria_card_move", "aria_card_no_move",
  "aria_face_down", "aria_table", "aria_moves", "aria_pile", "boards_heading", "todays_board", "scope_global",
  "scope_server", "rank", "player", "result", "you", "previous_page", "next_page", "page_of",
  "no_lines", "day", "commitment", "commitment_help", "seed", "seed_hidden", "stats_heading",
  "replay_heading", "first", "previous", "next", "last", "step_of", "turning_point_line",
  "go_to_turning_point", "no_replays", "network_error",
  // keys the client needs beyond those (listed in docs/activity-client.md for web/words.py)
  "play", "variant", "daily_played", "your_runs", "choose_for", "shortcuts", "card_slot",
  "joker_red", "joker_black", "dungeon", "xp", "hit_points", "encounter", "phase",
  "phase_delve", "phase_retreat", "phase_over", "this_turn", "piles", "pile", "reserve",
  "talon", "slain", "shield_last", "weapon_last", "hidden_cards", "previous_day", "next_day",
  "percent", "stats_finished", "stats_wins", "stats_win_rate", "stats_best", "stats_average",
  "stats_dailies", "stats_current_streak", "stats_longest_streak", "stats_freezes",
  "stats_hinted", "stats_recent", "stats_frozen", "stats_missed",
] as const;

export type WordKey = (typeof WORD_KEYS)[number];

let table: Record<string, string> = {};

/** Installs the server's words (from `/api/me`). */
export function setWords(words: Record<string, string> | undefined): void {
  table = { ...(words ?? {}) };
}

/** The word `key` in the player's language, its `{field}`s filled from `fields`. */
export function t(key: WordKey, fields: Record<string, string | number> = {}): string {
  const template = table[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in fields ? String(fields[name]) : whole,
  );
}

/** Whether the server sent a word for `key` (optional parts are left out without one). */
export function has(key: WordKey): boolean {
  return key in table;
}
