// Donsol's table: the room's four cards, then the dungeon, the shield with the last monster
// it blocked, health and XP (rules/donsol view: room, dungeon, shield, shield_last,
// shield_monsters, hp, max_hp, xp).

import { cardName } from "../cards";
import { CH, CW, type GameTable, MARGIN } from "../svg";
import { t } from "../words";

export const donsol: GameTable = {
  draw(view, scene) {
    const room: string[] = view.room ?? [];
    scene.label(t("room"), MARGIN + 6, 16);
    for (let i = 0; i < 4; i++) {
      scene.card(room[i] ?? null, 18 + i * 84, 24, { caption: t("room") });
    }
    const row = 24 + CH + 34;
    scene.label(t("dungeon"), 18, row - 8);
    scene.pile(view.dungeon ?? 0, 18, row, t("dungeon"), "dungeon");
    scene.label(t("shield"), 102, row - 8);
    scene.card(view.shield ?? null, 102, row, { caption: t("shield"), testid: "shield" });
    const monsters: string[] = view.shield_monsters ?? [];
    if (monsters.length) {
      const last = monsters[monsters.length - 1];
      scene.card(last, 102 + CW - 26, row + 34, { w: 52, caption: t("shield_last",
        { n: view.shield_last ?? "", card: cardName(last) }) });
    }
    scene.stat(t("health"), `${view.hp}/${view.max_hp}`, 222, row + 8, "health");
    scene.stat(t("xp"), String(view.xp ?? 0), 222, row + 64, "xp");
    let height = row + CH + 12;
    if (view.shield && view.shield_last !== null && view.shield_last !== undefined) {
      scene.label(t("shield_last", { n: view.shield_last, card: cardName(monsters.at(-1) ?? "") }),
        102, row + CH + 18, "start", "note");
      height += 14;
    }
    return { height };
  },
};
