// Clear the Dungeon's table: four monster piles, each with the cards attacking it and what it
// needs next (as notes under the table); the hand's three places and the power deck; the
// reserve and the slain count (rules/clear view: piles, hand, talon, reserve, slain).

import { cardName } from "../cards";
import { CH, CW, type GameTable, type Scene } from "../svg";
import { t } from "../words";

/** How far each attacking card sits below the one before: its index stays readable. */
const STEP = 30;

interface Pile {
  monster: string | null;
  hidden: number;
  attack: string[];
  needs: string | null;
}

export const clear: GameTable = {
  draw(view, scene: Scene) {
    const piles: Pile[] = view.piles ?? [];
    const notes: string[] = [];
    scene.label(t("piles"), 18, 16);
    piles.forEach((pile, i) => {
      const x = 18 + i * 84;
      const name = t("pile", { n: i + 1 });
      const under = pile.hidden > 0 ? ` ${t("hidden_cards", { n: pile.hidden })}` : "";
      const monster = scene.card(pile.monster, x, 24, { caption: name + under });
      monster.dataset.pile = String(i + 1);
      pile.attack.forEach((code, j) => scene.card(code, x, 24 + 46 + j * STEP, { caption: name }));
      // The cards under the monster, as a badge on its free upper right corner.
      if (pile.hidden > 0) scene.badge(t("hidden_cards", { n: pile.hidden }), x + CW - 4, 28);
      if (pile.monster && pile.needs) notes.push(`${cardName(pile.monster)}: ${pile.needs}`);
    });
    const most = Math.max(0, ...piles.map((p) => p.attack.length));
    const row = 24 + (most ? 46 + (most - 1) * STEP : 0) + CH + 34;
    scene.label(t("hand"), 18, row - 8);
    const hand: (string | null)[] = view.hand ?? [];
    hand.forEach((code, i) => scene.card(code, 18 + i * 84, row, { caption: t("hand") }));
    scene.label(t("talon"), 270, row - 8);
    scene.pile(view.talon ?? 0, 270, row, t("talon"), "talon");
    const low = row + CH + 34;
    scene.label(t("reserve"), 18, low - 8);
    const reserve: string[] = view.reserve ?? [];
    if (reserve.length) scene.fan(reserve, 18, low, 240, { caption: t("reserve") });
    else scene.card(null, 18, low, { caption: t("reserve"), testid: "reserve" });
    scene.stat(t("slain"), String(view.slain ?? 0), 270, low + 16, "slain");
    return { height: low + CH + 12, notes };
  },
};
