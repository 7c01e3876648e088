// The drawing kit every game's table uses: an SVG 360 units wide (one unit is one CSS pixel on
// a 360-px phone; wider screens scale it up), cards as the project's own faces, and the rule
// that a legal move is the card it touches. A card some actions touch is a button (role,
// tabindex, aria-label and hover title from the actions' labels, data-action(s) for tests);
// any other card is an image named for a screen reader.

import type { Action } from "./api";
import { cardName, faceUrl } from "./cards";
import { t } from "./words";

const NS = "http://www.w3.org/2000/svg";
export const WIDTH = 360;
export const CW = 72;
export const CH = 101;
export const MARGIN = 12;

export interface CardOptions {
  w?: number;
  faceDown?: boolean;
  /** What the card is, for a screen reader, when not a legal move: "Shield: 7♦". */
  caption?: string;
  testid?: string;
  /** False draws the card without its moves (a card shown twice, a replay). */
  touchable?: boolean;
}

export interface SceneOptions {
  actions: Action[];
  last: string[];
  hint: string[];
  interactive: boolean;
  /** The cards the previous drawing showed: the others come in with a short animation. */
  previous: Set<string>;
}

export function el<K extends keyof SVGElementTagNameMap>(
  name: K,
  attrs: Record<string, string | number> = {},
  parent?: Element,
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  parent?.appendChild(node);
  return node;
}

export class Scene {
  readonly svg: SVGSVGElement;
  /** Every card code drawn touchable: actions whose cards none of these are become buttons. */
  readonly drawn = new Set<string>();
  readonly shown = new Set<string>();
  private readonly byCard = new Map<string, Action[]>();

  constructor(readonly options: SceneOptions, label: string) {
    this.svg = el("svg", { viewBox: `0 0 ${WIDTH} 100`, class: "table", role: "group",
      "aria-label": label, "data-testid": "table" });
    for (const action of options.actions) {
      for (const code of action.cards) {
        const list = this.byCard.get(code) ?? [];
        list.push(action);
        this.byCard.set(code, list);
      }
    }
  }

  /** The actions that touch `code` (the engine's card notation). */
  actionsFor(code: string): Action[] {
    return this.options.interactive ? this.byCard.get(code) ?? [] : [];
  }

  /** A card at (x, y), its top left corner; null draws an empty slot. */
  card(code: string | null, x: number, y: number, options: CardOptions = {}): SVGGElement {
    const w = options.w ?? CW;
    const h = Math.round((w * CH) / CW);
    const g = el("g", { class: "card", transform: `translate(${x} ${y})` }, this.svg);
    el("rect", { class: "ring", x: -4, y: -4, width: w + 8, height: h + 8, rx: 9 }, g);
    if (code === null) {
      el("rect", { class: "slot", width: w, height: h, rx: 7 }, g);
      g.setAttribute("role", "img");
      g.setAttribute("aria-label", options.caption ?? t("card_slot"));
      if (options.testid) g.dataset.testid = options.testid;
      return g;
    }
    // A card drawn twice (Tomb's encounter is also among this turn's cards) is a move once,
    // where it is drawn first, and its test id stays unique.
    const again = !options.faceDown && this.shown.has(code);
    const face = options.faceDown ? "back" : code;
    el("image", { href: faceUrl(face), width: w, height: h, preserveAspectRatio: "none" }, g);
    const name = options.faceDown ? t("aria_face_down") : cardName(code);
    g.dataset.testid = options.testid ?? (options.faceDown ? "card-back"
      : again ? `card-${code}-again` : `card-${code}`);
    if (!options.faceDown) {
      g.dataset.card = code;
      this.shown.add(code);
      if (!this.options.previous.has(code)) g.classList.add("enter");
      if (this.options.last.includes(code)) g.classList.add("last");
      if (this.options.hint.includes(code)) g.classList.add("hinted");
    }
    const touching = options.faceDown || again || options.touchable === false ? []
      : this.actionsFor(code);
    const title = el("title", {}, g);
    if (touching.length) {
      this.drawn.add(code);
      g.classList.add("legal");
      g.setAttribute("role", "button");
      g.setAttribute("tabindex", "0");
      g.dataset.move = "card";
      if (touching.length === 1) g.dataset.action = touching[0].action;
      g.dataset.actions = touching.map((a) => a.action).join("|");
      const labels = touching.map((a) => a.label);
      title.textContent = labels.join("\n");
      g.setAttribute("aria-label", touching.length === 1 ? labels[0]
        : t("aria_card_move", { card: name, action: labels.join(" · ") }));
    } else {
      g.setAttribute("role", "img");
      const said = options.faceDown ? name : t("aria_card_no_move", { card: options.caption
        ? `${options.caption}: ${name}` : name });
      g.setAttribute("aria-label", said);
      title.textContent = said;
    }
    return g;
  }

  /** Cards overlapping left to right within `width` (a hand, torches, a reserve). */
  fan(codes: (string | null)[], x: number, y: number, width: number,
    options: CardOptions = {}): void {
    const w = options.w ?? CW;
    const n = codes.length;
    const step = n > 1 ? Math.min(w + 8, (width - w) / (n - 1)) : 0;
    codes.forEach((code, i) => this.card(code, x + i * step, y, options));
  }

  /** A small heading over a part of the table. */
  label(text: string, x: number, y: number, anchor: "start" | "middle" | "end" = "start",
    cls = "label"): SVGTextElement {
    const node = el("text", { x, y, "text-anchor": anchor, class: cls }, this.svg);
    node.textContent = text;
    return node;
  }

  /** A heading and a large value under it (health, XP, a count), read as one phrase. */
  stat(heading: string, value: string, x: number, y: number, testid: string,
    anchor: "start" | "middle" | "end" = "start"): void {
    const g = el("g", { role: "img", "aria-label": `${heading}: ${value}`, "data-testid": testid },
      this.svg);
    const top = el("text", { x, y, "text-anchor": anchor, class: "label" }, g);
    top.textContent = heading;
    const big = el("text", { x, y: y + 26, "text-anchor": anchor, class: "value" }, g);
    big.textContent = value;
  }

  /** A face-down pile with its count on it (the dungeon, a deck, a talon). */
  pile(count: number, x: number, y: number, heading: string, testid: string): void {
    const g = this.card("back", x, y, { faceDown: true, testid });
    const said = t("aria_pile", { name: heading, n: count });
    g.setAttribute("aria-label", said);
    const title = g.querySelector("title");
    if (title) title.textContent = said;
    if (count === 0) g.classList.add("empty");
    el("rect", { class: "count-bg", x: CW / 2 - 18, y: CH / 2 - 13, width: 36, height: 26, rx: 6 }, g);
    const text = el("text", { x: CW / 2, y: CH / 2 + 7, "text-anchor": "middle", class: "count" }, g);
    text.textContent = String(count);
  }

  /** A small dark pill with `text`, its right edge at x (a count on a card's corner). */
  badge(text: string, right: number, top: number): void {
    const width = 8 + 8 * text.length;
    const g = el("g", { class: "badge", "aria-hidden": "true" }, this.svg);
    el("rect", { x: right - width, y: top, width, height: 18, rx: 9 }, g);
    const node = el("text", { x: right - width / 2, y: top + 13, "text-anchor": "middle" }, g);
    node.textContent = text;
  }

  /** Sets the drawing's height; call last. */
  finish(height: number): SVGSVGElement {
    this.svg.setAttribute("viewBox", `0 0 ${WIDTH} ${Math.ceil(height)}`);
    return this.svg;
  }
}

/** A game's table: draws its view on the scene, returns its height and any notes in words. */
export interface GameTable {
  draw(view: Record<string, any>, scene: Scene): { height: number; notes?: string[] };
}
