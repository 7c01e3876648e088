"""The JSON routes of docs/web-api.md, over :class:`core.Core`.

Each handler reads who is asking from the request (``user``, set by :func:`signed_in` from
the bearer token, never from anything the client says), checks every value it takes from the
client, makes one core call, and answers. The core checks owner and version inside the
transaction that writes, exactly as for a click on a board; a refusal writes nothing.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from aiohttp import web

from core import AlreadyPlayed, Core, NotYourRun, Refusal, Run, RunKind, rankings
from core.checks import check_game, check_variant
from core.daily import closes_at, day_number
from core.errors import N_, Phrase
from language import Language, catalogs, for_reader
from rules import GAMES, rulebook
from rules.cards import CANONICAL, long_name
from rules.deal import commitment as commitment_of
from web import payloads
from web.auth import Auth, BadCode, DiscordUnreachable, SignedOut, User
from web.errors import (
    DISCORD_DOWN,
    GUILD,
    LANGUAGE,
    NOT_A_MEMBER,
    USER,
    ApiError,
    Handler,
    bad_request,
    signed_out,
)
from web.words import WORDS

log = logging.getLogger(__name__)

#: Largest version, page or step a client may send (far above any real run).
MAX_NUMBER = 2**31 - 1
MAX_ACTION = 100
MAX_CODE = 200

NOT_AN_OBJECT = N_("The request's body was not a JSON object, so nothing was changed.")
NEEDS_FIELD = N_("The request needs {field} ({kind}), so nothing was changed.")
KIND_INTEGER = N_("a whole number from 0 to 2147483647")
KIND_TEXT = N_("a short text")
KIND_RUN = N_("practice or daily")
BAD_CODE = N_("Discord did not accept that sign-in code: open the table again.")
BAD_QUERY = N_("{field} must be a whole number from 0 to 2147483647.")
BAD_SCOPE = N_("The scope must be global or server.")
PRACTICE_KIND = "practice"
SEED_MATCHES = N_("{name}'s seed is {seed}; its commitment matches, so the deal was fixed "
                  "before anyone played it.")
SEED_DIFFERS = N_("{name}'s seed is {seed}, but its commitment does not match: please tell "
                  "the bot's operator.")
GAME_DAY = N_("{game} #{number}")


# ----- who is asking ---------------------------------------------------------------------------

CORE: web.AppKey[Core] = web.AppKey("core", Core)
AUTH: web.AppKey[Auth] = web.AppKey("auth", Auth)


def core_of(request: web.Request) -> Core:
    return request.app[CORE]


def user_of(request: web.Request) -> User:
    return request[USER]


def language_of(request: web.Request) -> Language:
    return request[LANGUAGE]


def guild_of(request: web.Request) -> int | None:
    return request.get(GUILD)


def bearer(request: web.Request) -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


#: Routes that need no token.
OPEN = frozenset({"/api/health", "/api/config", "/api/token"})


@web.middleware
async def signed_in(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Every ``/api`` route but :data:`OPEN`: the token's user, their verified server and
    their language on the request, or 401 with nothing done."""
    path = request.path.removeprefix("/.proxy")
    if not path.startswith("/api/") or path in OPEN:
        return await handler(request)
    auth = request.app[AUTH]
    try:
        user = await auth.user(bearer(request))
    except SignedOut:
        raise signed_out() from None
    except DiscordUnreachable as exc:
        log.warning("Discord unreachable while signing in a request: %s", exc)
        raise ApiError(503, "discord_unreachable", DISCORD_DOWN) from None
    request[USER] = user
    wanted = request.headers.get("X-Guild-Id", "").strip()
    guild = int(wanted) if wanted.isdigit() and len(wanted) <= 20 else None
    # Only a server the user is in, by Discord's own list: else as if none was sent.
    request[GUILD] = guild if guild is not None and guild in user.guilds else None
    chosen, _server = await core_of(request).settings.languages(request[GUILD], user.id)
    request[LANGUAGE] = for_reader(chosen, user.locale)
    return await handler(request)


# ----- reading what the client sent ------------------------------------------------------------


async def body_of(request: web.Request) -> dict[str, Any]:
    try:
        data = json.loads(await request.text())
    except (ValueError, UnicodeDecodeError):
        raise bad_request(N_("That request is not valid JSON, so nothing was changed.")) from None
    if not isinstance(data, dict):
        raise bad_request(NOT_AN_OBJECT)
    return data


def integer(value: object, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_NUMBER:
        raise bad_request(NEEDS_FIELD, field=field, kind=Phrase(KIND_INTEGER))
    return value


def short_text(value: object, field: str, limit: int = MAX_ACTION) -> str:
    if not isinstance(value, str) or not value or len(value) > limit:
        raise bad_request(NEEDS_FIELD, field=field, kind=Phrase(KIND_TEXT))
    return value


def query_number(request: web.Request, field: str, default: int = 0) -> int:
    text = request.query.get(field)
    if text is None or text == "":
        return default
    if not text.isdigit() or len(text) > 10 or int(text) > MAX_NUMBER:
        raise bad_request(BAD_QUERY, field=field)
    return int(text)


def query_text(request: web.Request, field: str) -> str | None:
    text = request.query.get(field)
    if text is None or text.strip() == "":
        return None
    return short_text(text.strip(), field, 40)


def run_id_of(request: web.Request) -> int:
    return int(request.match_info["id"])  # the route takes 1 to 19 digits


# ----- payloads ---------------------------------------------------------------------------------


async def run_payload(run: Run, language: Language, core: Core, *,
                      last: str | None = None) -> dict[str, Any]:
    moves = None if last is not None or run.moves == 0 else await core.runs.moves(run.id)
    return payloads.run_payload(run, language, last=last, moves=moves)


async def answer_run(request: web.Request, run: Run, *, last: str | None = None,
                     extra: dict[str, Any] | None = None) -> web.Response:
    payload = await run_payload(run, language_of(request), core_of(request), last=last)
    if extra:
        payload |= extra
    return web.json_response(payload, headers={"Cache-Control": "no-store"})


def seed_text(seed: int | None) -> str | None:
    """A seed as JSON text: seeds are unsigned 64-bit, and a JSON number above 2**53 reaches
    a browser rounded (JavaScript's numbers are doubles), so /verify's check would fail."""
    return None if seed is None else str(seed)


def ok(data: dict[str, Any]) -> web.Response:
    return web.json_response(data, headers={"Cache-Control": "no-store"})


# ----- routes ------------------------------------------------------------------------------------


async def health(request: web.Request) -> web.Response:
    return ok({"ok": True})


async def config(request: web.Request) -> web.Response:
    """What the page needs before signing in: the application's id (public: it is in every
    Activity's address), for the SDK's ``authorize``."""
    return ok({"client_id": request.app[AUTH].client_id})


async def token(request: web.Request) -> web.Response:
    """``{"code"}`` -> Discord's ``{"access_token", "expires_in"}``."""
    code = short_text((await body_of(request)).get("code"), "code", MAX_CODE)
    auth = request.app[AUTH]
    try:
        access, expires = await auth.exchange(code)
    except BadCode:
        raise ApiError(401, "signed_out", BAD_CODE) from None
    except DiscordUnreachable as exc:
        log.warning("Discord unreachable for a code exchange: %s", exc)
        raise ApiError(503, "discord_unreachable", DISCORD_DOWN) from None
    return ok({"access_token": access, "expires_in": expires})


async def me(request: web.Request) -> web.Response:
    core, user, language = core_of(request), user_of(request), language_of(request)
    today = core.daily.today()
    games = []
    firsts = [(key, engine.variants[0]) for key, engine in GAMES.items()]
    played = await core.daily.played_each(user.id, firsts, today)
    for (key, variant), daily_run in zip(firsts, played, strict=True):
        engine = GAMES[key]
        games.append({
            "key": key, "title": engine.title,
            "variants": [{"key": v, "name": language.render(engine.variant_name(v))}
                         for v in engine.variants],
            "daily": {"day": today, "number": day_number(today),
                      "commitment": await core.daily.commitment(key, variant, today),
                      "played": daily_run},
        })
    runs = [payloads.summary(run, language) for run in await core.runs.unfinished(user.id)]
    return ok({
        "user": {"id": str(user.id), "name": user.name},
        "language": language.code,
        "languages": catalogs().codes,
        "guild": None if guild_of(request) is None else str(guild_of(request)),
        "words": {key: language.gettext(text) for key, text in WORDS.items()},
        # Every card's name in words ("Dame de pique"), for screen readers and the page's
        # sentences about a card; the faces themselves show the codes' rank and suit.
        "cards": {code: language.render(long_name(code)) for code in CANONICAL},
        "games": games,
        "runs": runs,
    })


async def start_run(request: web.Request) -> web.Response:
    core, user = core_of(request), user_of(request)
    body = await body_of(request)
    engine = check_game(body.get("game"))
    variant = check_variant(engine, body.get("variant"))
    kind = body.get("kind", PRACTICE_KIND)
    if kind not in (PRACTICE_KIND, RunKind.DAILY.value):
        raise bad_request(NEEDS_FIELD, field="kind", kind=Phrase(KIND_RUN))
    guild = guild_of(request)
    if kind == RunKind.DAILY.value:
        # The name the boards list the player by, kept in the start's own transaction.
        started = await core.daily.start(user.id, engine.key, variant, guild_id=guild,
                                         name=user.name)
        if started.created:
            log.info("run %s: daily %s (%s) %s started by user %s on the web", started.run.id,
                     engine.key, variant, started.run.day, user.id)
        elif started.run.over:
            raise AlreadyPlayed(started.run)
        return await answer_run(request, started.run)
    for run in await core.runs.unfinished(user.id, engine.key):
        if run.kind is RunKind.PRACTICE and run.variant == variant:
            return await answer_run(request, run)
    run = await core.runs.start(user.id, engine.key, variant, guild_id=guild)
    log.info("run %s: %s (%s, practice) started by user %s on the web", run.id, run.game,
             run.variant, user.id)
    return await answer_run(request, run)


async def get_run(request: web.Request) -> web.Response:
    run = await core_of(request).runs.get(run_id_of(request))
    if run.owner_id != user_of(request).id:
        raise NotYourRun(run)
    return await answer_run(request, run)


async def move(request: web.Request) -> web.Response:
    body = await body_of(request)
    version = integer(body.get("version"), "version")
    action = short_text(body.get("action"), "action")
    run = await core_of(request).runs.act(run_id_of(request), user_of(request).id, version,
                                          action)
    return await answer_run(request, run, last=action)


async def undo(request: web.Request) -> web.Response:
    version = integer((await body_of(request)).get("version"), "version")
    run = await core_of(request).runs.undo(run_id_of(request), user_of(request).id, version)
    return await answer_run(request, run)


async def resign(request: web.Request) -> web.Response:
    version = integer((await body_of(request)).get("version"), "version")
    run = await core_of(request).runs.resign(run_id_of(request), user_of(request).id, version)
    return await answer_run(request, run)


async def hint(request: web.Request) -> web.Response:
    version = integer((await body_of(request)).get("version"), "version")
    core, user, language = core_of(request), user_of(request), language_of(request)
    run, found = await core.hints.suggest(run_id_of(request), user.id, version)
    label = language.render(run.engine.label(run.view, found.action))
    return await answer_run(request, run, extra={"hint": {
        "action": found.action, "label": label, "reason": language.render(found.reason)}})


async def boards(request: web.Request) -> web.Response:
    core, user, language = core_of(request), user_of(request), language_of(request)
    engine = check_game(request.match_info["game"])
    variant = check_variant(engine, query_text(request, "variant"))
    scope = query_text(request, "scope") or "global"
    if scope not in ("global", "server"):
        raise bad_request(BAD_SCOPE)
    guild = None
    if scope == "server":
        guild = guild_of(request)
        if guild is None:
            raise ApiError(403, "not_a_member", NOT_A_MEMBER)
    board = await core.rankings.board(
        engine.key, variant, query_text(request, "day"), guild_id=guild,
        page=query_number(request, "page"), viewer_id=user.id)

    def line(found: Any) -> dict[str, Any]:
        return {"rank": found.rank, "name": language.render(rankings.listed_name(found)),
                "score_text": language.render(rankings.score_shown(found)),
                "outcome": found.outcome,
                "outcome_text": (language.render(engine.outcome_text(found.outcome))
                                 if found.outcome else None),
                "you": found.owner_id == user.id,
                # A closed day's runs can be replayed (GET /api/replays/{run}).
                "run": found.run_id if board.closed else None}

    return ok({
        "game": board.game, "title": engine.title, "variant": board.variant,
        "variant_name": language.render(engine.variant_name(board.variant)),
        "scope": board.scope, "day": board.day, "number": board.number,
        "closed": board.closed, "commitment": board.commitment, "seed": seed_text(board.seed),
        "page": board.page, "pages": board.pages, "size": board.size,
        "lines": [line(found) for found in board.lines],
        "own": None if board.own is None else line(board.own),
    })


async def stats(request: web.Request) -> web.Response:
    core, user, language = core_of(request), user_of(request), language_of(request)
    engine = check_game(request.match_info["game"])
    record = await core.rankings.record(user.id, engine.key)
    s = record.stats
    average = s.average_points
    return ok({
        "game": engine.key, "title": engine.title, "name": user.name,
        "finished": s.finished, "wins": s.wins, "dailies": s.dailies, "hinted": s.hinted,
        "win_rate": round(100 * s.wins / s.finished, 1) if s.finished else None,
        "best_text": language.render(s.best_text) if s.best_text else None,
        "average": average,
        "average_text": (language.render(engine.stat_text(
            round(average, 1), language.number(round(average, 1)))) if average is not None
            else None),
        "current_streak": record.current_streak, "longest_streak": record.longest_streak,
        "freezes": record.freezes,
        "recent": [
            {"day": day, "played": mark is not None, "won": bool(mark and mark.won),
             "frozen": day in record.frozen,
             "score_text": language.render(mark.score_text) if mark else None}
            for day, mark in record.recent
        ],
    })


async def verify(request: web.Request) -> web.Response:
    core, language = core_of(request), language_of(request)
    engine = check_game(request.match_info["game"])
    variant = check_variant(engine, query_text(request, "variant"))
    day = core.rankings.resolve_day(query_text(request, "day"))
    committed = await core.daily.commitment(engine.key, variant, day)
    name = Phrase(GAME_DAY, game=engine.title, number=day_number(day))
    seed: int | None = None
    matches: bool | None = None
    try:
        seed = await core.daily.revealed_seed(engine.key, variant, day)
    except Refusal as exc:  # still open: the core's sentence says when the seed shows
        message = language.render(exc.message)
    else:
        matches = commitment_of(seed) == committed
        message = language.format(SEED_MATCHES if matches else SEED_DIFFERS, name=name,
                                  seed=seed)
    return ok({"game": engine.key, "variant": variant, "day": day, "number": day_number(day),
               "commitment": committed, "seed": seed_text(seed), "matches": matches,
               "message": message,
               "closes_at": closes_at(day).isoformat()})


async def replay(request: web.Request) -> web.Response:
    core, user, language = core_of(request), user_of(request), language_of(request)
    run_id = run_id_of(request)
    number = query_number(request, "step")
    await core.replays.check(run_id, user.id)
    try:
        turn = await core.replays.turn(run_id, user.id)
    except Refusal:
        raise
    except Exception:  # the replay is still worth showing without its turning point
        log.exception("run %s: its turning point could not be worked out", run_id)
        turn = None
    step = await core.replays.step(run_id, user.id, number)
    return ok({
        "run": payloads.summary(step.run, language),
        "step": step.number, "steps": step.total,
        "view": payloads.rendered(step.view, language),
        "action": step.action, "cards": payloads.cards_of(step.action),
        "label": language.render(step.label) if step.label else None,
        "turning_point": (None if turn is None or turn.step is None else
                          {"step": turn.step, "text": language.render(turn.text)}),
    })


async def rules(request: web.Request) -> web.Response:
    language = language_of(request)
    engine = check_game(request.match_info["game"])
    lang = rulebook.language(engine.key, language.code)
    return ok({"game": engine.key, "title": rulebook.title(engine.key, lang),
               "language": lang, "text": rulebook.text(engine.key, lang)})


#: (method, path, handler): each served under ``/`` and ``/.proxy/`` (docs/web-api.md).
RUN = r"{id:[0-9]{1,19}}"
ROUTES: tuple[tuple[str, str, Handler], ...] = (
    ("GET", "/api/health", health),
    ("GET", "/api/config", config),
    ("POST", "/api/token", token),
    ("GET", "/api/me", me),
    ("POST", "/api/runs", start_run),
    ("GET", f"/api/runs/{RUN}", get_run),
    ("POST", f"/api/runs/{RUN}/move", move),
    ("POST", f"/api/runs/{RUN}/undo", undo),
    ("POST", f"/api/runs/{RUN}/resign", resign),
    ("POST", f"/api/runs/{RUN}/hint", hint),
    ("GET", "/api/boards/{game}", boards),
    ("GET", "/api/stats/{game}", stats),
    ("GET", "/api/verify/{game}", verify),
    ("GET", f"/api/replays/{RUN}", replay),
    ("GET", "/api/rules/{game}", rules),
)
