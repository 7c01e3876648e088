// Tomb of Four Kings' table: the hit-point card, the deck, the encounter and the phase; the
// torches and this turn's cards; the hand (rules/tomb view: hp_card, damage, deck,
// encounter, phase, torches, turn, hand).

import { CH, type GameTable, type Scene } from "../svg";
import { has, t, type WordKey } from "../words";

export const tomb: GameTable = {
  draw(view, scene: Scene) {
    scene.label(t("hit_points"), 18, 16);
    scene.card(view.hp_card ?? null, 18, 24, { caption: t("hit_points"), testid: "hp-card" });
    scene.label(t("deck"), 102, 16);
    scene.pile(view.deck ?? 0, 102, 24, t("deck"), "deck");
    scene.label(t("encounter"), 186, 16);
    scene.card(view.encounter ?? null, 186, 24, { caption: t("encounter"), testid: view.encounter
      ? undefined : "encounter" });
    const phase = `phase_${view.phase}` as WordKey;
    scene.stat(t("phase"), has(phase) ? t(phase) : String(view.phase ?? ""), 270, 40, "phase");
    const row = 24 + CH + 34;
    scene.label(t("torches"), 18, row - 8);
    const torches: string[] = view.torches ?? [];
    if (torches.length) scene.fan(torches, 18, row, 156, { caption: t("torches") });
    else scene.card(null, 18, row, { caption: t("torches") });
    scene.label(t("this_turn"), 186, row - 8);
    const turn: string[] = view.turn ?? [];
    if (turn.length) scene.fan(turn, 186, row, 156, { caption: t("this_turn") });
    else scene.card(null, 186, row, { caption: t("this_turn") });
    const hand = row + CH + 34;
    scene.label(t("hand"), 18, hand - 8);
    const cards: string[] = view.hand ?? [];
    if (cards.length) scene.fan(cards, 18, hand, 324, { caption: t("hand") });
    else scene.card(null, 18, hand, { caption: t("hand") });
    return { height: hand + CH + 12 };
  },
};
