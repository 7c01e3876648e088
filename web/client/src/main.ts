// The Activity's page: signs in, then one game at a time — start practice or today's daily,
// resume, the table — and around it the day's boards with /verify's check, your stats, the
// rules and the replay viewer of closed days' dailies. Every word comes from the server.

import {
  type Api, ApiError, type Board, type BoardLine, type GameInfo, type Me, type Replay,
  type RunPayload, type RunSummary, type Verify,
} from "./api";
import { signIn } from "./auth";
import { setCardNames } from "./cards";
import { markdown } from "./markdown";
import "./style.css";
import { announce, button, drawView, h, signInAgain, TableScreen } from "./table";
import { setWords, t, type WordKey } from "./words";

interface Stats {
  finished?: number; wins?: number; dailies?: number; hinted?: number;
  win_rate?: number | null; best_text?: string | null; average_text?: string | null;
  current_streak?: number; longest_streak?: number; freezes?: number;
  recent?: { day: string; played: boolean; won: boolean; frozen: boolean; score_text: string | null }[];
}

type ScreenName = "play" | "boards" | "stats" | "rules" | "replay";
const SCREENS: ScreenName[] = ["play", "boards", "stats", "rules"];

interface BoardsState {
  day: string | null;
  scope: "global" | "server";
  page: number;
}

class App {
  me!: Me;
  game = "";
  screen: ScreenName = "play";
  boards: BoardsState = { day: null, scope: "global", page: 0 };
  replay = { run: 0, step: 0 };
  readonly open = new Map<string, RunPayload>();
  readonly variant = new Map<string, string>();
  readonly table: TableScreen;
  readonly main = h("main", { id: "screen" });
  readonly nav = h("nav", { class: "nav" });

  constructor(readonly api: Api, readonly root: HTMLElement) {
    this.table = new TableScreen(api, (p) => {
      this.open.set(p.run.game, p);
    });
    // The replay viewer's keys: arrows step, Home and End go to the first and last step.
    document.addEventListener("keydown", (e) => {
      if (this.screen !== "replay" || e.altKey || e.ctrlKey || e.metaKey) return;
      const testid = { ArrowLeft: "replay-back", ArrowRight: "replay-forward", Home: "replay-first",
        End: "replay-last" }[e.key];
      const target = testid && this.main.querySelector<HTMLButtonElement>(`[data-testid="${testid}"]`);
      if (target && !target.disabled) {
        e.preventDefault();
        target.click();
      }
    });
  }

  async start(): Promise<void> {
    this.me = await this.api.get<Me>("me");
    setWords(this.me.words);
    setCardNames(this.me.cards);
    document.documentElement.lang = this.me.language || "en";
    document.title = t("app_title");
    this.game = this.me.games[0]?.key ?? "";
    this.root.replaceChildren(
      h("header", {}, h("h1", {}, t("app_title")),
        h("span", { class: "who", "data-testid": "user" }, this.me.user.name)),
      this.nav, this.main);
    await this.go(this.game, "play");
  }

  get info(): GameInfo | undefined {
    return this.me.games.find((g) => g.key === this.game);
  }

  /** Shows `screen` of `game`; the nav says which is current. */
  async go(game: string, screen: ScreenName): Promise<void> {
    this.game = game;
    this.screen = screen;
    this.drawNav();
    this.main.replaceChildren();
    try {
      if (screen === "play") this.drawPlay();
      else if (screen === "boards") await this.drawBoards();
      else if (screen === "stats") await this.drawStats();
      else if (screen === "rules") await this.drawRules();
      else await this.drawReplay();
    } catch (error) {
      this.main.append(notice(error));
      if (screen === "boards") {
        // A day without a daily, a server you are not in: back to today's global board.
        this.boards = { day: null, scope: "global", page: 0 };
        this.main.append(button(t("todays_board"), "boards-today", () => void this.go(game, "boards")));
      }
    }
  }

  drawNav(): void {
    const games = h("div", { class: "tabs games", role: "tablist", "aria-label": t("games") },
      ...this.me.games.map((g) => {
        const b = button(g.title, `game-${g.key}`, () => void this.go(g.key, this.screen === "replay" ? "play" : this.screen),
          { role: "tab", "aria-selected": String(g.key === this.game) });
        return b;
      }));
    const screens = h("div", { class: "tabs screens", role: "tablist" },
      ...SCREENS.map((s) => button(t(s), `screen-${s}`, () => void this.go(this.game, s),
        { role: "tab", "aria-selected": String(s === this.screen) })));
    this.nav.replaceChildren(games, screens);
  }

  // ----- play -----

  drawPlay(): void {
    const info = this.info;
    if (!info) return;
    const select = h("select", { "data-testid": "variant", "aria-label": t("variant") },
      ...info.variants.map((v) => {
        const o = h("option", { value: v.key }, v.name);
        if (v.key === (this.variant.get(info.key) ?? info.variants[0]?.key)) o.selected = true;
        return o;
      }));
    select.addEventListener("change", () => this.variant.set(info.key, select.value));
    const start = h("div", { class: "start" },
      h("div", { class: "practice" },
        info.variants.length > 1 ? select : null,
        button(t("practice"), "start-practice", () => void this.startRun("practice"))));
    const daily = info.daily;
    if (daily) {
      const played = daily.played !== null;
      start.append(h("div", { class: "daily", "data-testid": "daily" },
        button(t("daily_number", { n: daily.number }), "start-daily",
          () => void this.startRun("daily")),
        played ? h("span", { class: "tag" }, t("daily_played")) : null,
        h("p", { class: "commitment", title: t("commitment_help") },
          h("span", {}, `${t("commitment")} `),
          h("code", { "data-testid": "commitment" }, daily.commitment))));
    }
    const resumable = (this.me.runs as (RunPayload | RunSummary)[])
      .map((r) => ("run" in r ? r.run : r))
      .filter((r) => r.game === info.key && r.status === "playing"
        && r.id !== this.open.get(info.key)?.run.id);
    if (resumable.length) {
      start.append(h("div", { class: "resume" }, h("h3", {}, t("your_runs")),
        ...resumable.map((r) => button(
          t("resume_line", { what: [r.variant_name, r.kind === "daily" ? t("daily_number", { n: r.number ?? "" }) : t("practice_run"), r.score_text].join(" · ") }),
          `resume-${r.id}`, () => void this.resume(r.id)))));
    }
    this.main.append(start);
    const open = this.open.get(info.key);
    if (open) {
      this.main.append(this.table.element);
      this.table.show(open);
    }
  }

  async startRun(kind: "practice" | "daily"): Promise<void> {
    const info = this.info;
    if (!info) return;
    const variant = kind === "daily" ? null : this.variant.get(info.key) ?? info.variants[0]?.key ?? null;
    try {
      const payload = await this.api.post<RunPayload>("runs", { game: info.key, variant, kind });
      this.openRun(payload, "");
    } catch (error) {
      if (error instanceof ApiError && error.run) {
        // The refusal carries the run (already played): shown, with the refusal's code on
        // its notice line as every other refusal has.
        this.openRun(error.run, "");
        this.table.refused(error);
      } else this.main.prepend(notice(error));
    }
  }

  async resume(id: number): Promise<void> {
    try {
      this.openRun(await this.api.get<RunPayload>(`runs/${id}`), "");
    } catch (error) {
      this.main.prepend(notice(error));
    }
  }

  openRun(payload: RunPayload, message: string): void {
    this.open.set(payload.run.game, payload);
    if (payload.run.kind === "daily" && this.info?.daily) this.info.daily.played = payload.run.id;
    this.game = payload.run.game;
    this.screen = "play";
    this.drawNav();
    this.main.replaceChildren();
    this.drawPlay();
    if (message) this.table.show(payload, message);
    this.table.element.querySelector<HTMLElement>("g.legal, .moves button")?.focus();
    announce(payload.run.prompt);
  }

  // ----- boards and verify -----

  async drawBoards(): Promise<void> {
    const info = this.info;
    if (!info) return;
    const q = new URLSearchParams({ scope: this.boards.scope, page: String(this.boards.page) });
    if (this.boards.day) q.set("day", this.boards.day);
    const board = await this.api.get<Board>(`boards/${info.key}?${q}`);
    this.boards.day = board.day;
    const scopes = h("div", { class: "tabs scopes", role: "tablist" },
      ...(["global", "server"] as const).filter((s) => s === "global" || this.me.guild)
        .map((s) => button(t(s === "global" ? "scope_global" : "scope_server"), `scope-${s}`, () => {
          this.boards = { ...this.boards, scope: s, page: 0 };
          void this.go(this.game, "boards");
        }, { role: "tab", "aria-selected": String(s === this.boards.scope) })));
    const dayNav = h("div", { class: "daynav" },
      button(t("previous_day"), "previous-day", () => this.shiftDay(-1)),
      h("span", { "data-testid": "board-day" }, `${t("daily_number", { n: board.number })} · ${board.day}`),
      button(t("next_day"), "next-day", () => this.shiftDay(1)));
    const facts = h("dl", { class: "facts" },
      h("dt", { title: t("commitment_help") }, t("commitment")),
      h("dd", { "data-testid": "board-commitment" }, board.commitment),
      h("dt", {}, t("seed")), h("dd", { "data-testid": "board-seed" },
        board.seed === null ? t("seed_hidden") : String(board.seed)));
    const verifyOut = h("p", { class: "verify-out", "data-testid": "verify-result", role: "status" });
    const verify = button(t("verify"), "verify", async () => {
      try {
        const q2 = new URLSearchParams({ day: board.day, variant: board.variant });
        const v = await this.api.get<Verify>(`verify/${info.key}?${q2}`);
        verifyOut.textContent = v.message;
        verifyOut.dataset.matches = String(v.matches);
      } catch (error) {
        verifyOut.textContent = error instanceof ApiError && error.message ? error.message
          : t("network_error");
      }
    });
    verify.disabled = !board.closed;
    const rows = board.lines.map((line) => this.boardRow(line, board));
    const own = board.own && !board.lines.some((l) => l.you) ? this.boardRow(board.own, board) : null;
    const table = rows.length
      ? h("table", { class: "board-lines", "data-testid": "board-lines" },
        h("thead", {}, h("tr", {}, h("th", {}, t("rank")), h("th", {}, t("player")),
          h("th", {}, t("score")), h("th", {}, t("result")), h("th", {}, ""))),
        h("tbody", {}, ...rows, ...(own ? [own] : [])))
      : h("p", { "data-testid": "board-empty" }, t("no_lines"));
    const pages = h("div", { class: "pages" },
      button(t("previous_page"), "previous-page", () => this.shiftPage(-1)),
      h("span", {}, t("page_of", { n: board.page + 1, total: Math.max(1, board.pages) })),
      button(t("next_page"), "next-page", () => this.shiftPage(1)));
    const [prev, next] = pages.querySelectorAll("button");
    prev.disabled = board.page <= 0;
    next.disabled = board.page + 1 >= board.pages;
    this.main.append(h("section", { class: "boards", "data-testid": "boards",
      "data-closed": String(board.closed) },
    h("h2", {}, t("boards_heading")), scopes, dayNav, table, pages, facts,
    h("div", { class: "verify" }, verify, verifyOut), board.closed ? null : h("p", { class: "muted" }, t("no_replays"))));
  }

  boardRow(line: BoardLine, board: Board): HTMLTableRowElement {
    const watch = board.closed && line.run
      ? button(t("replay"), `replay-${line.run}`, () => {
        this.replay = { run: Number(line.run), step: 0 };
        void this.go(this.game, "replay");
      })
      : null;
    return h("tr", { class: line.you ? "you" : "", "data-testid": line.you ? "board-own" : "board-line" },
      h("td", {}, String(line.rank)), h("td", {}, line.name + (line.you ? ` (${t("you")})` : "")),
      h("td", {}, line.score_text), h("td", {}, line.outcome_text), h("td", {}, watch));
  }

  shiftDay(by: number): void {
    const day = this.boards.day ?? new Date().toISOString().slice(0, 10);
    const when = new Date(`${day}T12:00:00Z`);
    when.setUTCDate(when.getUTCDate() + by);
    this.boards = { ...this.boards, day: when.toISOString().slice(0, 10), page: 0 };
    void this.go(this.game, "boards");
  }

  shiftPage(by: number): void {
    this.boards = { ...this.boards, page: Math.max(0, this.boards.page + by) };
    void this.go(this.game, "boards");
  }

  // ----- stats and rules -----

  async drawStats(): Promise<void> {
    const stats = await this.api.get<Stats>(`stats/${this.game}`);
    const list = h("dl", { class: "facts stats", "data-testid": "stats" });
    const add = (key: WordKey, value: unknown, testid: string) => {
      if (value === null || value === undefined || value === "") return;
      list.append(h("dt", {}, t(key)), h("dd", { "data-testid": testid }, String(value)));
    };
    add("stats_finished", stats.finished, "stats-finished");
    add("stats_wins", stats.wins, "stats-wins");
    add("stats_win_rate", stats.win_rate === null || stats.win_rate === undefined ? null
      : t("percent", { n: stats.win_rate }), "stats-win-rate");
    add("stats_best", stats.best_text, "stats-best");
    add("stats_average", stats.average_text, "stats-average");
    add("stats_dailies", stats.dailies, "stats-dailies");
    add("stats_current_streak", stats.current_streak, "stats-current-streak");
    add("stats_longest_streak", stats.longest_streak, "stats-longest-streak");
    add("stats_freezes", stats.freezes, "stats-freezes");
    add("stats_hinted", stats.hinted, "stats-hinted");
    // The recent days as a strip of marks, each named by its day and result.
    const recent = h("ol", { class: "recent", "data-testid": "stats-recent", "aria-label": t("stats_recent") },
      ...(stats.recent ?? []).map((d) => {
        const said = [d.day, d.score_text ?? (d.frozen ? t("stats_frozen") : t("stats_missed"))].join(" · ");
        return h("li", { class: d.won ? "won" : d.played ? "played" : d.frozen ? "frozen" : "missed",
          title: said, "aria-label": said });
      }));
    this.main.append(h("section", { class: "stats" }, h("h2", {}, t("stats_heading")), list,
      stats.recent?.length ? h("h3", {}, t("stats_recent")) : null,
      stats.recent?.length ? recent : null));
  }

  async drawRules(): Promise<void> {
    const rules = await this.api.get<{ title: string; text: string }>(`rules/${this.game}`);
    this.main.append(h("article", { class: "rules", "data-testid": "rules" }, markdown(rules.text)));
  }

  // ----- replays -----

  async drawReplay(): Promise<void> {
    const { run, step } = this.replay;
    const r = await this.api.get<Replay>(`replays/${run}?step=${step}`);
    this.replay.step = r.step;
    const { scene } = drawView(r.run.game, r.view, { actions: [], last: [], hint: [],
      previous: new Set(), label: t("aria_table", { game: r.run.title }) });
    const to = (n: number) => {
      this.replay.step = Math.max(0, Math.min(r.steps, n));
      void this.go(this.game, "replay");
    };
    const controls = h("div", { class: "controls replay-controls" },
      button(t("first"), "replay-first", () => to(0)),
      button(t("previous"), "replay-back", () => to(r.step - 1)),
      button(t("next"), "replay-forward", () => to(r.step + 1)),
      button(t("last"), "replay-last", () => to(r.steps)));
    const [first, back, forward, last] = controls.querySelectorAll("button");
    first.disabled = back.disabled = r.step <= 0;
    forward.disabled = last.disabled = r.step >= r.steps;
    const turning = r.turning_point
      ? h("div", { class: "turning" },
        h("p", { "data-testid": "turning-point" }, t("turning_point_line", { text: r.turning_point.text })),
        button(t("go_to_turning_point"), "replay-turning", () => to(r.turning_point!.step)))
      : null;
    const events: string[] = r.view.events ?? [];
    this.main.append(h("section", { class: "replay", "data-testid": "replay", "data-step": String(r.step) },
      h("h2", {}, [t("replay_heading"), r.run.title, r.run.number !== null ? t("daily_number", { n: r.run.number }) : "", r.run.score_text]
        .filter(Boolean).join(" · ")),
      h("p", { "data-testid": "replay-step", role: "status" }, t("step_of", { n: r.step, total: r.steps })),
      r.label ? h("p", { "data-testid": "replay-action" }, t("last_move_line", { action: r.label })) : null,
      h("div", { class: "board" }, scene.svg),
      controls, turning,
      events.length ? h("ul", { class: "events" }, ...events.map((e) => h("li", {}, e))) : null,
      button(t("close"), "replay-close", () => void this.go(this.game, "boards"))));
    announce(t("step_of", { n: r.step, total: r.steps }));
  }
}

function notice(error: unknown): HTMLElement {
  const text = error instanceof ApiError && error.message ? error.message : t("network_error");
  const signedOut = error instanceof ApiError && error.code === "signed_out";
  return h("p", { class: "notice shown", role: "status", "data-testid": "notice",
    "data-code": error instanceof ApiError ? error.code : "offline" }, text,
  signedOut ? " " : null, signedOut ? signInAgain() : null);
}

async function boot(): Promise<void> {
  const root = document.getElementById("app");
  if (!root) return;
  root.replaceChildren(h("p", { class: "loading", "data-testid": "loading" }, "…"));
  try {
    const session = await signIn();
    await new App(session.api, root).start();
    root.dataset.ready = "true";
  } catch (error) {
    // No words may have arrived yet: the server's own sentence, else a symbol and retry.
    const message = error instanceof ApiError && error.message ? error.message : "⚠";
    root.replaceChildren(h("p", { class: "notice shown", role: "alert", "data-testid": "signin-error",
      "data-code": error instanceof ApiError ? error.code : "sdk" }, message),
    button("↻", "retry", () => void boot(), { "aria-label": t("retry") }));
    root.dataset.ready = "error";
    console.error(error);
  }
}

void boot();
