// Donsol's table: the room's four cards, then the dungeon, the shield with the last monster
// it blocked, health and XP (rules/donsol view: room, dungeon, shield, shield_last,
// shield_monsters, hp, max_hp, xp).

import type { GameTable } from "../svg";
import { t } from "../words";
import { drawRoom } from "./room";

export const donsol: GameTable = {
  draw(view, scene) {
    const { row, height } = drawRoom(view, scene, {
      word: "shield", lastWord: "shield_last", code: view.shield ?? null,
      monsters: view.shield_monsters ?? [], last: view.shield_last,
    });
    scene.stat(t("xp"), String(view.xp ?? 0), 222, row + 64, "xp");
    return { height };
  },
};
