// Scoundrel's table: the room, then the dungeon, the weapon with the last monster it slew,
// and health (rules/scoundrel view: room, dungeon, weapon, weapon_last, slain, hp, max_hp).

import { cardName } from "../cards";
import { CH, CW, type GameTable, MARGIN, type Scene } from "../svg";
import { t } from "../words";

export const scoundrel: GameTable = {
  draw(view, scene: Scene) {
    const room: string[] = view.room ?? [];
    scene.label(t("room"), MARGIN + 6, 16);
    for (let i = 0; i < 4; i++) {
      scene.card(room[i] ?? null, 18 + i * 84, 24, { caption: t("room") });
    }
    const row = 24 + CH + 34;
    scene.label(t("dungeon"), 18, row - 8);
    scene.pile(view.dungeon ?? 0, 18, row, t("dungeon"), "dungeon");
    scene.label(t("weapon"), 102, row - 8);
    scene.card(view.weapon ?? null, 102, row, { caption: t("weapon"), testid: "weapon" });
    const slain: string[] = view.slain ?? [];
    if (view.weapon && slain.length) {
      const last = slain[slain.length - 1];
      scene.card(last, 102 + CW - 26, row + 34, { w: 52, caption: t("weapon_last",
        { n: view.weapon_last ?? "", card: cardName(last) }) });
    }
    scene.stat(t("health"), `${view.hp}/${view.max_hp}`, 222, row + 8, "health");
    let height = row + CH + 12;
    if (view.weapon && view.weapon_last !== null && view.weapon_last !== undefined) {
      scene.label(t("weapon_last", { n: view.weapon_last, card: cardName(slain.at(-1) ?? "") }),
        102, row + CH + 18, "start", "note");
      height += 14;
    }
    return { height };
  },
};
