// Scoundrel's table: the room, then the dungeon, the weapon with the last monster it slew,
// and health (rules/scoundrel view: room, dungeon, weapon, weapon_last, slain, hp, max_hp).

import type { GameTable } from "../svg";
import { drawRoom } from "./room";

export const scoundrel: GameTable = {
  draw(view, scene) {
    const { height } = drawRoom(view, scene, {
      word: "weapon", lastWord: "weapon_last", code: view.weapon ?? null,
      // The slain pile shows on the weapon's corner only while a weapon is held.
      monsters: view.weapon ? view.slain ?? [] : [], last: view.weapon_last,
    });
    return { height };
  },
};
