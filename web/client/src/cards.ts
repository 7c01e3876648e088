// Card codes as the engines write them ("7C", "10H", "QS", "RJ"/"BJ", "back") and how a
// card is named for a screen reader: its name in words from the server (`/api/me`'s
// `cards`, in the player's language), else its rank and suit symbol, as on the face itself.

import { t } from "./words";

const SUITS: Record<string, string> = { S: "♠", H: "♥", D: "♦", C: "♣" };

let names: Record<string, string> = {};

/** Installs the server's card names (from `/api/me`). */
export function setCardNames(table: Record<string, string> | undefined): void {
  names = table ?? {};
}

/** "QS" -> "Queen of Spades" (the server's words), else "Q♠"; jokers by their words;
 * anything else is returned as it is. */
export function cardName(code: string): string {
  const named = names[code];
  if (named) return named;
  if (code === "RJ") return t("joker_red");
  if (code === "BJ") return t("joker_black");
  const suit = SUITS[code.slice(-1)];
  return suit ? code.slice(0, -1) + suit : code;
}

/** The face's file, relative to the page (so it works under Discord's proxy as at home). */
export function faceUrl(code: string): string {
  return `faces/${encodeURIComponent(code)}.png`;
}
