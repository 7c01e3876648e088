// The HTTP contract (docs/activity-client.md): JSON calls to `/api/...`, under `/.proxy` when
// the page runs inside Discord, each carrying the access token and the guild the Activity was
// opened in. A non-2xx answer becomes an ApiError holding the server's calm sentence.

export interface Action {
  action: string;
  label: string;
  cards: string[];
}

export interface RunSummary {
  id: number;
  game: string;
  title: string;
  variant: string;
  variant_name: string;
  kind: "practice" | "daily";
  day: string | null;
  number: number | null;
  version: number;
  status: "playing" | "over" | "resigned";
  outcome: string | null;
  outcome_text: string;
  won: boolean;
  score: number[];
  score_text: string;
  prompt: string;
  moves: number;
}

export type View = Record<string, any>;

export interface Hint {
  action: string;
  label: string;
  reason: string;
}

export interface RunPayload {
  run: RunSummary;
  view: View;
  actions: Action[];
  last: { action: string | null; cards: string[] };
  can: { undo: boolean; resign: boolean; hint: boolean };
  hint?: Hint;
}

export interface Daily {
  day: string;
  number: number;
  commitment: string;
  played: number | null;
}

export interface GameInfo {
  key: string;
  title: string;
  variants: { key: string; name: string }[];
  daily: Daily | null;
}

export interface Me {
  user: { id: string; name: string };
  language: string;
  guild: string | null;
  words: Record<string, string>;
  /** Every card's name in words, in the player's language ("QS" -> "Queen of Spades"). */
  cards?: Record<string, string>;
  games: GameInfo[];
  runs: RunPayload[] | RunSummary[];
}

export interface BoardLine {
  rank: number;
  name: string;
  score_text: string;
  outcome_text: string;
  you: boolean;
  run?: number | null;
}

export interface Board {
  game: string;
  variant: string;
  day: string;
  number: number;
  closed: boolean;
  commitment: string;
  seed: string | number | null;
  page: number;
  pages: number;
  lines: BoardLine[];
  own: BoardLine | null;
}

export interface Verify {
  day: string;
  commitment: string;
  seed: string | number | null;
  matches: boolean | null;
  message: string;
}

export interface Replay {
  run: RunSummary;
  step: number;
  steps: number;
  view: View;
  action: string | null;
  label: string | null;
  turning_point: { step: number; text: string } | null;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly run: RunPayload | null,
  ) {
    super(message);
  }
}

export class Api {
  token: string | null = null;

  constructor(
    readonly base: string,
    readonly guild: string | null,
  ) {}

  async call<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { Accept: "application/json" };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (this.guild) headers["X-Guild-Id"] = this.guild;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    let response: Response;
    try {
      response = await fetch(`${this.base}/api/${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        cache: "no-store",
      });
    } catch {
      throw new ApiError(0, "offline", "", null);
    }
    let data: any = null;
    try {
      data = await response.json();
    } catch {
      data = null;
    }
    if (!response.ok) {
      const error = data?.error ?? {};
      throw new ApiError(response.status, String(error.code ?? "unexpected"),
        String(error.message ?? ""), error.run ?? null);
    }
    return data as T;
  }

  get<T>(path: string): Promise<T> {
    return this.call<T>("GET", path);
  }

  post<T>(path: string, body: unknown): Promise<T> {
    return this.call<T>("POST", path, body);
  }
}
