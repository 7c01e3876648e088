// The table Donsol and Scoundrel share: the room's four cards, then the dungeon, the card the
// player holds (Donsol's shield, Scoundrel's weapon) with the last monster it met, and
// health. Each game says what it holds and adds its own (Donsol's XP).

import { cardName } from "../cards";
import { CH, CW, MARGIN, type Scene } from "../svg";
import { t, type WordKey } from "../words";

export interface Held {
  /** The held card's word ("shield", "weapon"), also its test id. */
  word: WordKey & ("shield" | "weapon");
  /** Its caption for the last monster: "last blocked {n}", "last slew {n}". */
  lastWord: WordKey;
  code: string | null;
  /** The monsters it met, the last shown on its corner (none: nothing shown). */
  monsters: string[];
  /** The number under it that the next monster must be below, if any. */
  last: number | null | undefined;
}

/** Draws the room table; the row the held card and the stats stand on, and the height. */
export function drawRoom(view: Record<string, any>, scene: Scene, held: Held): { row: number; height: number } {
  const room: string[] = view.room ?? [];
  scene.label(t("room"), MARGIN + 6, 16);
  for (let i = 0; i < 4; i++) {
    scene.card(room[i] ?? null, 18 + i * 84, 24, { caption: t("room") });
  }
  const row = 24 + CH + 34;
  scene.label(t("dungeon"), 18, row - 8);
  scene.pile(view.dungeon ?? 0, 18, row, t("dungeon"), "dungeon");
  scene.label(t(held.word), 102, row - 8);
  scene.card(held.code, 102, row, { caption: t(held.word), testid: held.word });
  if (held.monsters.length) {
    const last = held.monsters[held.monsters.length - 1];
    scene.card(last, 102 + CW - 26, row + 34, { w: 52, caption: t(held.lastWord,
      { n: held.last ?? "", card: cardName(last) }) });
  }
  scene.stat(t("health"), `${view.hp}/${view.max_hp}`, 222, row + 8, "health");
  let height = row + CH + 12;
  if (held.code && held.last !== null && held.last !== undefined) {
    scene.label(t(held.lastWord, { n: held.last, card: cardName(held.monsters.at(-1) ?? "") }),
      102, row + CH + 18, "start", "note");
    height += 14;
  }
  return { row, height };
}
