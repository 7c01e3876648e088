"""A stand-in for the Activity's server, for testing the browser table on its own.

It serves the built page (``web/dist``) and answers the HTTP contract
(``docs/activity-client.md``) from the real engines, with runs kept in memory: sign-in takes
any OAuth2 code and names the user after it (``?mock_code=alice`` signs in as alice), a move
is ``game.apply`` with the version check a click has, undo steps back one state, the daily is
a fixed seed per game, and yesterday's daily (closed, with one finished run) can be watched in
the replay viewer. The words are English, one per key the client reads, so the page shows no
word the server did not send. The real server is ``web/`` (the web-server branch); this
stand-in only has to be exact about the payloads' shapes.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web

from rules import GAMES
from rules.cards import is_card
from rules.rulebook import source

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "web" / "dist"
CLIENT_ID = "1234567890"
TODAY, YESTERDAY = "2026-12-01", "2026-11-30"
#: Only the page's own origin, for everything.
CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; " \
      "connect-src 'self'; frame-ancestors 'self'; base-uri 'self'; object-src 'none'"
#: Every day's daily seed per game: today's and yesterday's.
SEEDS = {TODAY: 11, YESTERDAY: 7}

#: The client's words in English (the keys of web/client/src/words.ts).
WORDS: dict[str, str] = {
    "app_title": "Dungeon Deck", "retry": "Try again", "close": "Close", "games": "Games",
    "practice": "Practice", "daily": "Daily", "resume": "Resume", "boards": "Boards",
    "stats": "Stats", "replay": "Replay", "rules": "Rules", "verify": "Verify",
    "your_move": "Your move", "undo": "Undo", "resign": "Resign",
    "resign_confirm": "Resign this run? It ends as lost, with its score so far.",
    "resign_yes": "Yes, resign", "resign_no": "Keep playing", "hint": "Hint",
    "hint_heading": "A good move", "run_over": "This run is over.", "last_move": "Last move",
    "deck": "Deck", "room": "Room", "hand": "Hand", "health": "Health", "shield": "Shield",
    "weapon": "Weapon", "torches": "Torches", "score": "Score", "daily_number": "Daily #{n}",
    "practice_run": "Practice run", "aria_card_move": "{card}: {action}",
    "aria_card_no_move": "{card}, cannot be played now", "aria_face_down": "A face-down card",
    "aria_table": "The {game} table", "aria_moves": "Legal moves",
    "aria_pile": "{name}: {n} cards", "boards_heading": "Today's boards",
    "scope_global": "Everyone", "scope_server": "This server", "rank": "Rank",
    "player": "Player", "result": "Result", "you": "You", "previous_page": "Previous page",
    "next_page": "Next page", "page_of": "Page {n} of {total}",
    "no_lines": "Nobody has finished this board yet.", "day": "Day",
    "commitment": "Commitment", "commitment_help": "The deal's fingerprint.", "seed": "Seed",
    "seed_hidden": "The seed is shown once the day's boards close.",
    "stats_heading": "Your stats", "replay_heading": "Replay", "first": "First",
    "previous": "Back", "next": "Forward", "last": "Last", "step_of": "Move {n} of {total}",
    "turning_point": "Turning point", "go_to_turning_point": "Go to the turning point",
    "no_replays": "Replays open once the day's boards have closed.",
    "network_error": "The table cannot reach the server.",
    "play": "Play", "variant": "Variant", "daily_played": "Played",
    "your_runs": "Your unfinished runs", "choose_for": "Which move for {card}?",
    "shortcuts": "Keys: Tab or arrows choose a move, Enter plays it, U undoes, H hints.",
    "card_slot": "An empty place", "joker_red": "Red joker", "joker_black": "Black joker",
    "dungeon": "Dungeon", "xp": "XP", "hit_points": "Hit points", "encounter": "Encounter",
    "phase": "Phase", "phase_delve": "Delving", "phase_retreat": "Retreating",
    "phase_over": "Over", "this_turn": "This turn", "piles": "Monsters",
    "pile": "Pile {n}", "reserve": "Reserve", "talon": "Power deck", "slain": "Slain",
    "shield_last": "last blocked {n}", "weapon_last": "last slew {n}",
    "hidden_cards": "+{n}", "previous_day": "Previous day", "next_day": "Next day",
    "percent": "{n}%", "stats_finished": "Runs finished", "stats_wins": "Wins",
    "stats_win_rate": "Win rate", "stats_best": "Best", "stats_average": "Average",
    "stats_dailies": "Dailies played", "stats_current_streak": "Current streak",
    "stats_longest_streak": "Longest streak", "stats_freezes": "Streak freezes",
    "stats_hinted": "Runs with hints", "stats_recent": "Recent days",
    "stats_frozen": "frozen", "stats_missed": "not played",
}


def commitment(game: str, day: str) -> str:
    return hashlib.sha256(f"{game}:{day}:{SEEDS[day]}".encode()).hexdigest()


@dataclass
class Run:
    id: int
    user: str
    game: str
    variant: str
    kind: str
    day: str | None
    states: list[Any]
    actions: list[str] = field(default_factory=list)
    resigned: bool = False
    #: One more on every write, undo included, as the real runs table counts.
    version: int = 0

    @property
    def state(self) -> Any:
        return self.states[-1]


def error(status: int, code: str, message: str, run: dict[str, Any] | None = None) -> web.Response:
    body: dict[str, Any] = {"code": code, "message": message}
    if run is not None:
        body["run"] = run
    return web.json_response({"error": body}, status=status)


def cards_of(action: str) -> list[str]:
    return [part for part in action.split(" ")[1:] if is_card(part)]


class Fixture:
    def __init__(self) -> None:
        self.runs: dict[int, Run] = {}
        self.words = WORDS
        self.revoked: set[str] = set()
        self.rng = random.Random(5)
        # Yesterday's closed daily of every game, played to the end by "bob".
        for key in GAMES:
            run = self._new("bob", key, "daily", YESTERDAY)
            chooser = random.Random(3)
            while GAMES[key].actions(run.state):
                self._apply(run, chooser.choice(GAMES[key].actions(run.state)))

    def _new(self, user: str, key: str, kind: str, day: str | None,
             variant: str | None = None) -> Run:
        game = GAMES[key]
        seed = SEEDS[day] if day else self.rng.randrange(2**63)
        state = game.new(seed, variant)
        run = Run(len(self.runs) + 1, user, key, state.variant, kind, day, [state])
        self.runs[run.id] = run
        return run

    @staticmethod
    def _apply(run: Run, action: str) -> None:
        run.states.append(GAMES[run.game].apply(run.state, action))
        run.actions.append(action)
        run.version += 1

    def summary(self, run: Run) -> dict[str, Any]:
        game = GAMES[run.game]
        view = game.view(run.state)
        status = "resigned" if run.resigned else "over" if view["over"] else "playing"
        return {"id": run.id, "game": run.game, "title": game.title, "variant": run.variant,
                "variant_name": str(game.variant_name(run.variant)), "kind": run.kind,
                "day": run.day, "number": 5 if run.day == TODAY else 4 if run.day else None,
                "version": run.version, "status": status, "outcome": view["outcome"],
                "outcome_text": str(game.outcome_text(view["outcome"])) if view["outcome"]
                else ("resigned" if run.resigned else ""),
                "won": view["won"], "score": view["score"], "score_text": view["score_text"],
                "prompt": view["prompt"], "moves": view["moves"]}

    def payload(self, run: Run) -> dict[str, Any]:
        game = GAMES[run.game]
        view = json.loads(json.dumps(game.view(run.state)))
        playing = not run.resigned and not view["over"]
        actions = game.actions(run.state) if playing else []
        last = run.actions[-1] if run.actions else None
        return {"run": self.summary(run), "view": view,
                "actions": [{"action": a, "label": str(game.label(view, a)), "cards": cards_of(a)}
                            for a in actions],
                "last": {"action": last, "cards": cards_of(last) if last else []},
                "can": {"undo": playing and bool(run.actions) and run.kind == "practice",
                        "resign": playing, "hint": playing and run.kind == "practice"}}

    # ----- the routes -----

    def user(self, request: web.Request) -> str | None:
        token = request.headers.get("Authorization", "")
        if not token.startswith("Bearer tok-") or token in self.revoked:
            return None
        return token.removeprefix("Bearer tok-")

    def revoke(self, user: str) -> None:
        """The user's token stops working (expired, revoked): 401 from now on."""
        self.revoked.add(f"Bearer tok-{user}")

    async def config(self, _request: web.Request) -> web.Response:
        return web.json_response({"client_id": CLIENT_ID})

    async def token(self, request: web.Request) -> web.Response:
        code = (await request.json()).get("code")
        if not isinstance(code, str) or not code.isalnum():
            return error(401, "signed_out", "Discord did not sign you in.")
        self.revoked.discard(f"Bearer tok-{code}")
        return web.json_response({"access_token": f"tok-{code}", "expires_in": 604800})

    async def me(self, request: web.Request, user: str) -> web.Response:
        games = []
        for key, game in GAMES.items():
            played = next((r.id for r in self.runs.values() if r.user == user
                           and r.game == key and r.day == TODAY), None)
            games.append({"key": key, "title": game.title,
                          "variants": [{"key": v, "name": str(game.variant_name(v))}
                                       for v in game.variants],
                          "daily": {"day": TODAY, "number": 5, "commitment": commitment(key, TODAY),
                                    "played": played}})
        runs = [self.summary(r) for r in self.runs.values()
                if r.user == user and self.summary(r)["status"] == "playing"]
        guild = request.headers.get("X-Guild-Id")
        return web.json_response({"user": {"id": "1", "name": user}, "language": "en",
                                  "guild": guild, "words": self.words, "games": games,
                                  "runs": runs})

    async def start(self, request: web.Request, user: str) -> web.Response:
        body = await request.json()
        key, kind = body.get("game"), body.get("kind")
        if key not in GAMES or kind not in ("practice", "daily"):
            return error(400, "bad_request", "That is not a game.")
        if kind == "daily":
            run = next((r for r in self.runs.values() if r.user == user and r.game == key
                        and r.day == TODAY), None)
            if run and self.summary(run)["status"] != "playing":
                return error(409, "already_played", "You have played today's daily.",
                             self.payload(run))
            run = run or self._new(user, key, "daily", TODAY)
        else:
            run = next((r for r in self.runs.values() if r.user == user and r.game == key
                        and r.kind == "practice" and self.summary(r)["status"] == "playing"
                        and r.variant == (body.get("variant") or GAMES[key].variants[0])), None)
            run = run or self._new(user, key, "practice", None, body.get("variant"))
        return web.json_response(self.payload(run))

    def owned(self, request: web.Request, user: str) -> Run | web.Response:
        run = self.runs.get(int(request.match_info["id"]))
        if run is None:
            return error(404, "not_found", "There is no such run.")
        if run.user != user:
            return error(403, "not_your_run", "That run is someone else's.")
        return run

    async def get_run(self, request: web.Request, user: str) -> web.Response:
        run = self.owned(request, user)
        return run if isinstance(run, web.Response) else web.json_response(self.payload(run))

    async def write(self, request: web.Request, user: str) -> web.Response:
        run = self.owned(request, user)
        if isinstance(run, web.Response):
            return run
        body = await request.json()
        if body.get("version") != run.version:
            return error(409, "stale", "This board is out of date: here it is as it is now.",
                         self.payload(run))
        what = request.match_info["what"]
        hint = None
        if self.summary(run)["status"] != "playing":
            return error(409, "run_over", "This run is over.")
        if what == "move":
            action = body.get("action")
            if action not in GAMES[run.game].actions(run.state):
                return error(422, "illegal_move", "That move is not possible now.")
            self._apply(run, action)
        elif what == "undo" and run.actions:
            run.actions.pop()
            run.states.pop()
            run.version += 1
        elif what == "resign":
            run.resigned = True
            run.version += 1
        elif what == "hint":
            first = GAMES[run.game].actions(run.state)[0]
            view = GAMES[run.game].view(run.state)
            hint = {"action": first, "label": str(GAMES[run.game].label(view, first)),
                    "reason": "the first move the engine lists"}
        payload = self.payload(run)
        if hint:
            payload["hint"] = hint
        return web.json_response(payload)

    async def boards(self, request: web.Request, user: str) -> web.Response:
        key = request.match_info["game"]
        day = request.query.get("day") or TODAY
        if day not in SEEDS:
            return error(404, "not_found", "There was no daily that day.")
        closed = day != TODAY
        finished = [r for r in self.runs.values() if r.game == key and r.day == day
                    and self.summary(r)["status"] != "playing"]
        finished.sort(key=lambda r: GAMES[key].view(r.state)["score"], reverse=True)
        lines = [{"rank": i + 1, "name": r.user, "score_text": self.summary(r)["score_text"],
                  "outcome_text": self.summary(r)["outcome_text"], "you": r.user == user,
                  "run": r.id if closed else None} for i, r in enumerate(finished)]
        own = next((line for line in lines if line["you"]), None)
        return web.json_response({"game": key, "variant": GAMES[key].variants[0], "day": day,
                                  "number": 5 if day == TODAY else 4, "closed": closed,
                                  "commitment": commitment(key, day),
                                  "seed": SEEDS[day] if closed else None, "page": 0,
                                  "pages": 1, "lines": lines, "own": own})

    async def verify(self, request: web.Request, _user: str) -> web.Response:
        key, day = request.match_info["game"], request.query.get("day") or TODAY
        closed = day != TODAY
        return web.json_response({"day": day, "commitment": commitment(key, day),
                                  "seed": SEEDS[day] if closed else None,
                                  "matches": True if closed else None,
                                  "message": "The seed matches the commitment." if closed
                                  else "The seed is shown once the day closes."})

    async def stats(self, request: web.Request, user: str) -> web.Response:
        key = request.match_info["game"]
        done = [r for r in self.runs.values() if r.user == user and r.game == key
                and self.summary(r)["status"] != "playing"]
        wins = sum(GAMES[key].view(r.state)["won"] for r in done)
        return web.json_response({
            "game": key, "title": GAMES[key].title, "name": user, "finished": len(done),
            "wins": wins, "dailies": sum(r.kind == "daily" for r in done), "hinted": 0,
            "win_rate": round(100 * wins / len(done), 1) if done else None,
            "best_text": None, "average": None, "average_text": None, "current_streak": 0,
            "longest_streak": 0, "freezes": 0,
            "recent": [{"day": YESTERDAY, "played": False, "won": False, "frozen": False,
                        "score_text": None},
                       {"day": TODAY, "played": any(r.day == TODAY for r in done),
                        "won": False, "frozen": False, "score_text": None}]})

    async def rules(self, request: web.Request, _user: str) -> web.Response:
        key = request.match_info["game"]
        return web.json_response({"title": GAMES[key].title, "text": source(key)})

    async def replay(self, request: web.Request, _user: str) -> web.Response:
        run = self.runs.get(int(request.match_info["id"]))
        if run is None or run.day != YESTERDAY:
            return error(403, "refused", "Replays open once the day's boards have closed.")
        steps = len(run.actions)
        step = max(0, min(steps, int(request.query.get("step", "0"))))
        game = GAMES[run.game]
        view = json.loads(json.dumps(game.view(run.states[step])))
        action = run.actions[step - 1] if step else None
        return web.json_response({
            "run": self.summary(run), "step": step, "steps": steps, "view": view,
            "action": action, "label": str(game.label(view, action)) if action else None,
            "turning_point": {"step": steps // 2, "text": "the fixture's middle move"}})


#: The application's key for its Fixture (tests read the runs through it).
FIXTURE: web.AppKey[Fixture] = web.AppKey("fixture", Fixture)


def app(words: dict[str, str] | None = None) -> web.Application:
    """The stand-in's application; ``words`` replaces the English table (tests use it to
    see that every word on the page is the server's)."""
    fixture = Fixture()
    if words is not None:
        fixture.words = words

    def signed(handler: Any) -> Any:
        async def wrapped(request: web.Request) -> web.Response:
            user = fixture.user(request)
            if user is None:
                return error(401, "signed_out", "You are signed out.")
            return await handler(request, user)
        return wrapped

    async def index(_request: web.Request) -> web.FileResponse:
        return web.FileResponse(DIST / "index.html", headers={"Cache-Control": "no-store"})

    @web.middleware
    async def strict(request: web.Request, handler: Any) -> web.StreamResponse:
        # Stricter than the real server's: the page must need nothing inline.
        response = await handler(request)
        response.headers["Content-Security-Policy"] = CSP
        return response

    application = web.Application(middlewares=[strict])
    application[FIXTURE] = fixture
    for prefix in ("", "/.proxy"):
        application.router.add_get(f"{prefix}/api/config", fixture.config)
        application.router.add_post(f"{prefix}/api/token", fixture.token)
        application.router.add_get(f"{prefix}/api/me", signed(fixture.me))
        application.router.add_post(f"{prefix}/api/runs", signed(fixture.start))
        application.router.add_get(f"{prefix}/api/runs/{{id:\\d+}}", signed(fixture.get_run))
        application.router.add_post(f"{prefix}/api/runs/{{id:\\d+}}/{{what:move|undo|resign|hint}}",
                                     signed(fixture.write))
        application.router.add_get(f"{prefix}/api/boards/{{game}}", signed(fixture.boards))
        application.router.add_get(f"{prefix}/api/verify/{{game}}", signed(fixture.verify))
        application.router.add_get(f"{prefix}/api/stats/{{game}}", signed(fixture.stats))
        application.router.add_get(f"{prefix}/api/rules/{{game}}", signed(fixture.rules))
        application.router.add_get(f"{prefix}/api/replays/{{id:\\d+}}", signed(fixture.replay))
    application.router.add_get("/", index)
    application.router.add_static("/assets", DIST / "assets")
    application.router.add_static("/faces", DIST / "faces")
    return application


if __name__ == "__main__":
    web.run_app(app(), host="127.0.0.1", port=8765)
