// One run's table: the prompt and events, the game's SVG with its touchable cards, the
// card-less moves and undo / resign / hint as buttons, a choice when one card has several
// moves, keyboard play, and the refusals shown in place. Every write sends the version the
// table shows; a stale refusal redraws the table from the run the server sends back.

import { type Action, type Api, ApiError, type RunPayload } from "./api";
import { cardName } from "./cards";
import { TABLES } from "./games/index";
import { type GameTable, Scene } from "./svg";
import { t } from "./words";

export function h<K extends keyof HTMLElementTagNameMap>(
  name: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string | null | undefined)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(name);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

export function button(text: string, testid: string, onClick: () => void,
  attrs: Record<string, string> = {}): HTMLButtonElement {
  const node = h("button", { type: "button", "data-testid": testid, ...attrs }, text);
  node.addEventListener("click", onClick);
  return node;
}

/** The nodes that are there (a part left out is null). */
export function present(...nodes: (Node | null | undefined)[]): Node[] {
  return nodes.filter((n): n is Node => n !== null && n !== undefined);
}

/** Says `text` to a screen reader through the page's polite live region. */
export function announce(text: string): void {
  const live = document.getElementById("live");
  if (!live) return;
  live.textContent = "";
  // A fresh text node after clearing makes readers say the same words twice if need be.
  window.setTimeout(() => { live.textContent = text; }, 30);
}

/** Draws a view with its game's table; `actions` empty for a picture (replays). */
export function drawView(game: string, view: Record<string, any>, options: {
  actions: Action[]; last: string[]; hint: string[]; previous: Set<string>; label: string;
}): { scene: Scene; notes: string[] } {
  const table: GameTable | undefined = TABLES[game];
  const scene = new Scene({ ...options, interactive: options.actions.length > 0 }, options.label);
  if (!table) return { scene, notes: [] };
  const { height, notes } = table.draw(view, scene);
  scene.finish(height);
  return { scene, notes: notes ?? [] };
}

const LONG_PRESS_MS = 450;

export class TableScreen {
  payload: RunPayload | null = null;
  private busy = false;
  private previous = new Set<string>();
  private readonly node = h("section", { class: "run", "data-testid": "run" });

  constructor(private readonly api: Api, private readonly onRun: (p: RunPayload) => void) {
    document.addEventListener("keydown", (e) => this.key(e));
  }

  get element(): HTMLElement {
    return this.node;
  }

  show(payload: RunPayload, notice = ""): void {
    this.payload = payload;
    this.render(notice);
    this.onRun(payload);
  }

  private render(notice: string): void {
    const p = this.payload;
    if (!p) return;
    const { run, view } = p;
    const hintCards = p.hint ? p.actions.find((a) => a.action === p.hint?.action)?.cards ?? [] : [];
    const { scene, notes } = drawView(run.game, view, {
      actions: run.status === "playing" ? p.actions : [],
      last: p.last?.cards ?? [],
      hint: hintCards,
      previous: this.previous,
      label: t("aria_table", { game: run.title }),
    });
    this.previous = scene.shown;
    scene.svg.addEventListener("click", (e) => this.touched(e));
    scene.svg.addEventListener("keydown", (e) => {
      if ((e.key === "Enter" || e.key === " ") && e.target instanceof Element) {
        const card = e.target.closest<SVGGElement>("g.legal");
        if (card) {
          e.preventDefault();
          this.chooseFor(card);
        }
      }
    });
    this.longPress(scene.svg);

    const heading = [run.title, run.variant_name];
    if (run.kind === "daily" && run.number !== null) heading.push(t("daily_number", { n: run.number }));
    const over = run.status !== "playing";
    const cardless = p.actions.filter((a) => !a.cards.length || !a.cards.some((c) => scene.drawn.has(c)));
    const moves = h("div", { class: "moves", "data-testid": "moves", role: "group",
      "aria-label": t("aria_moves") },
      ...(over ? [] : cardless.map((a) => {
        const b = button(a.label, `move-${a.action}`, () => this.move(a.action),
          { "data-action": a.action, "data-move": "button", title: a.label,
            class: p.hint?.action === a.action ? "hinted" : "" });
        return b;
      })));
    const resign = button(t("resign"), "resign", () => this.resign());
    const controls = h("div", { class: "controls" },
      button(t("undo"), "undo", () => this.write("undo"), { "aria-keyshortcuts": "U", title: "U" }),
      button(t("hint"), "hint", () => this.write("hint"), { "aria-keyshortcuts": "H", title: "H" }),
      resign);
    const [undo, hint] = controls.querySelectorAll("button");
    undo.disabled = !p.can.undo;
    hint.disabled = !p.can.hint;
    resign.disabled = !p.can.resign;
    if (!p.can.hint) hint.hidden = run.kind === "daily";

    const events: string[] = view.events ?? [];
    this.node.replaceChildren(...present(
      h("h2", { "data-testid": "run-title" }, heading.filter(Boolean).join(" · ")),
      h("p", { class: over ? "status over" : "status", "data-testid": "status", "data-status": run.status },
        over ? `${t("run_over")} ${run.outcome_text} · ${run.score_text}` : run.score_text),
      // A resigned run's view still asks for a move: it has no prompt any more.
      run.status === "resigned" ? null : h("p", { class: "prompt", "data-testid": "prompt" },
        over ? null : h("strong", {}, `${t("your_move")} `), run.prompt || String(view.prompt ?? "")),
      h("p", { class: notice ? "notice shown" : "notice", role: "status", "data-testid": "notice" }, notice),
      p.hint ? h("p", { class: "hint-text", "data-testid": "hint-text" },
        t("hint_line", { move: p.hint.label, reason: p.hint.reason })) : null,
      h("div", { class: "board", "data-version": String(run.version), "data-run": String(run.id),
        "data-game": run.game }, scene.svg),
      notes.length ? h("ul", { class: "notes", "data-testid": "notes" }, ...notes.map((n) => h("li", {}, n))) : null,
      h("div", { class: "choice", "data-testid": "choice", hidden: "" }),
      moves,
      controls,
      events.length ? h("div", { class: "events" }, h("h3", {}, t("last_move")),
        h("ul", { "data-testid": "events" }, ...events.map((e) => h("li", {}, e)))) : null,
      h("p", { class: "shortcuts", "data-testid": "shortcuts" }, t("shortcuts")),
    ));
  }

  /** A click or tap on the table: a legal card plays, or asks which of its moves. */
  private touched(event: MouseEvent): void {
    if (!(event.target instanceof Element)) return;
    const card = event.target.closest<SVGGElement>("g.legal");
    if (!card) return;
    if (card.dataset.pressed === "long") {
      delete card.dataset.pressed;
      return;
    }
    this.chooseFor(card);
  }

  private chooseFor(card: SVGGElement): void {
    const p = this.payload;
    if (!p) return;
    const names = (card.dataset.actions ?? "").split("|").filter(Boolean);
    const actions = names.map((n) => p.actions.find((a) => a.action === n)).filter(
      (a): a is Action => a !== undefined);
    if (actions.length === 1) {
      this.move(actions[0].action);
      return;
    }
    const choice = this.node.querySelector<HTMLElement>(".choice");
    if (!choice || !actions.length) return;
    const code = card.dataset.card ?? "";
    choice.replaceChildren(
      h("p", {}, t("choose_for", { card: cardName(code) })),
      ...actions.map((a) => button(a.label, `choice-${a.action}`, () => this.move(a.action),
        { "data-action": a.action, "data-move": "choice" })),
      button(t("close"), "choice-cancel", () => this.closeChoice(card)),
    );
    choice.hidden = false;
    choice.querySelector<HTMLButtonElement>("button")?.focus();
  }

  private closeChoice(back?: Element): void {
    const choice = this.node.querySelector<HTMLElement>(".choice");
    if (choice) {
      choice.hidden = true;
      choice.replaceChildren();
    }
    if (back instanceof SVGGElement) back.focus();
  }

  /** Long-press on a card shows its moves' words (a phone has no hover). */
  private longPress(svg: SVGSVGElement): void {
    let timer = 0;
    svg.addEventListener("pointerdown", (e) => {
      if (e.pointerType === "mouse" || !(e.target instanceof Element)) return;
      const card = e.target.closest<SVGGElement>("g.card");
      if (!card) return;
      timer = window.setTimeout(() => {
        card.dataset.pressed = "long";
        const said = card.getAttribute("aria-label") ?? "";
        const tip = this.node.querySelector<HTMLElement>(".notice");
        if (tip) {
          tip.textContent = card.querySelector("title")?.textContent?.replace(/\n/g, " · ") ?? said;
          tip.className = "notice shown tip";
        }
      }, LONG_PRESS_MS);
    });
    for (const name of ["pointerup", "pointercancel", "pointerleave"]) {
      svg.addEventListener(name, () => window.clearTimeout(timer));
    }
    svg.addEventListener("contextmenu", (e) => {
      if (e.target instanceof Element && e.target.closest("g.card")) e.preventDefault();
    });
  }

  private key(e: KeyboardEvent): void {
    if (!this.payload || !this.node.isConnected || e.altKey || e.ctrlKey || e.metaKey) return;
    const target = e.target as HTMLElement | null;
    if (target && ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName)) return;
    const key = e.key.toLowerCase();
    if (key === "u" && this.payload.can.undo) {
      e.preventDefault();
      this.write("undo");
    } else if (key === "h" && this.payload.can.hint) {
      e.preventDefault();
      this.write("hint");
    } else if (key === "escape") {
      this.closeChoice();
    } else if (["arrowleft", "arrowright", "arrowup", "arrowdown"].includes(key)) {
      const legal = Array.from(this.node.querySelectorAll<HTMLElement | SVGGElement>(
        "g.legal, .choice:not([hidden]) button, .moves button"));
      if (!legal.length) return;
      e.preventDefault();
      const at = legal.indexOf(document.activeElement as HTMLElement);
      const step = key === "arrowleft" || key === "arrowup" ? -1 : 1;
      const next = at < 0 ? 0 : (at + step + legal.length) % legal.length;
      legal[next].focus();
    }
  }

  move(action: string): void {
    const p = this.payload;
    if (!p) return;
    void this.send(`runs/${p.run.id}/move`, { version: p.run.version, action });
  }

  /** Resigning asks first, in the choice strip under the table. */
  private resign(): void {
    const choice = this.node.querySelector<HTMLElement>(".choice");
    if (!choice) return;
    const back = this.node.querySelector<HTMLElement>('[data-testid="resign"]');
    choice.replaceChildren(
      h("p", {}, t("resign_confirm")),
      button(t("resign_yes"), "resign-yes", () => this.write("resign")),
      button(t("resign_no"), "resign-no", () => {
        this.closeChoice();
        back?.focus();
      }),
    );
    choice.hidden = false;
    choice.querySelector<HTMLButtonElement>('[data-testid="resign-no"]')?.focus();
  }

  private write(what: "undo" | "resign" | "hint"): void {
    const p = this.payload;
    if (!p) return;
    void this.send(`runs/${p.run.id}/${what}`, { version: p.run.version });
  }

  private async send(path: string, body: { version: number; action?: string }): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.node.setAttribute("aria-busy", "true");
    const focused = (document.activeElement as HTMLElement | null)?.dataset?.testid;
    try {
      const next = await this.api.post<RunPayload>(path, body);
      this.show(next);
      announce([...(next.view.events ?? []), next.run.prompt].filter(Boolean).join(" "));
    } catch (error) {
      this.refused(error);
    } finally {
      this.busy = false;
      this.node.removeAttribute("aria-busy");
    }
    // Keep the keyboard where it was: the same card if still legal, else the first move.
    const again = focused ? this.node.querySelector<HTMLElement>(`[data-testid="${focused}"]`) : null;
    const first = this.node.querySelector<HTMLElement>("g.legal, .moves button");
    (again ?? first)?.focus?.();
  }

  refused(error: unknown): void {
    const message = error instanceof ApiError && error.message ? error.message : t("network_error");
    if (error instanceof ApiError && error.run) {
      this.show(error.run, message);
    } else {
      this.render(message);
    }
    const line = this.node.querySelector<HTMLElement>('[data-testid="notice"]');
    if (line && error instanceof ApiError) {
      line.dataset.code = error.code;
      if (error.code === "signed_out") line.append(" ", signInAgain());
    }
    announce(message);
  }
}

/** The token expired or was revoked: signing in again is loading the page again (the SDK
 * authorizes anew, silently: prompt "none"). */
export function signInAgain(): HTMLButtonElement {
  return button(t("retry"), "sign-in-again", () => window.location.reload());
}
