"""Every answer that is not a 2xx: ``{"error": {"code", "message", "run"?}}``.

- :class:`ApiError`: what the adapter itself refuses (malformed JSON, a wrong type, signed
  out, not a member), with a marked sentence;
- the core's :class:`~core.errors.Refusal`: its own sentence, in the player's language, with
  the code and status of its kind (a stale board carries the run as it is now);
- anything else is a bug: 500 ``unexpected`` with an error id in the message, and the
  traceback logged with that id, the route and the user. A response never holds a traceback.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from core import (
    AlreadyPlayed,
    BadRequest,
    IllegalMove,
    NotYourRun,
    Refusal,
    RunNotFound,
    RunOver,
    StaleBoard,
)
from core.errors import N_, Message
from language import ENGLISH, Language

log = logging.getLogger(__name__)

SIGNED_OUT = N_("You are signed out: open the table again from Discord to sign in.")
BAD_JSON = N_("That request is not valid JSON, so nothing was changed.")
NOT_FOUND = N_("There is nothing at that address.")
NOT_ALLOWED = N_("That address does not take that method.")
TOO_LARGE = N_("That request is too large, so nothing was changed.")
UNEXPECTED = N_("Something went wrong on our side (error {id}); nothing was changed. "
                "Please try again.")
DISCORD_DOWN = N_("Discord cannot be reached right now; please try again in a minute.")
NOT_A_MEMBER = N_("Server boards are for the server the table was opened in, and you are "
                  "not a member of it.")

#: What ``web.api.signed_in`` learns about a request: who asks (from Discord, by the token),
#: in which server (verified), and in which language to answer (English until known).
USER: web.RequestKey[Any] = web.RequestKey("user", object)
GUILD: web.RequestKey[int | None] = web.RequestKey("guild", object)
LANGUAGE: web.RequestKey[Language] = web.RequestKey("language", Language)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
#: Turns a run into its payload in a language (``web.payloads.run_payload``), for refusals
#: that carry the run.
RunPayload = Callable[[Any, Language], Awaitable[dict[str, Any]]]


class ApiError(Exception):
    """A refusal of the adapter's own: ``status``, ``code`` and a marked sentence."""

    def __init__(self, status: int, code: str, message: str | Message, /,
                 **params: object) -> None:
        if not isinstance(message, Message):
            message = Message(message, params)
        super().__init__(str(message))
        self.status = status
        self.code = code
        self.message = message


def bad_request(message: str, /, **params: object) -> ApiError:
    return ApiError(400, "bad_request", message, **params)


def signed_out() -> ApiError:
    return ApiError(401, "signed_out", SIGNED_OUT)


#: (refusal class, status, code, whether the answer carries the run), most specific first.
REFUSALS: tuple[tuple[type[Refusal], int, str, bool], ...] = (
    (RunNotFound, 404, "not_found", False),
    (NotYourRun, 403, "not_your_run", False),  # the owner's run is never shown to another
    (StaleBoard, 409, "stale", True),
    (RunOver, 409, "run_over", True),
    (AlreadyPlayed, 409, "already_played", True),
    (IllegalMove, 422, "illegal_move", False),
    (BadRequest, 400, "bad_request", False),
)


def refusal_status(refusal: Refusal) -> tuple[int, str, bool]:
    for kind, status, code, with_run in REFUSALS:
        if isinstance(refusal, kind):
            return status, code, with_run
    return 422, "refused", False


def error_body(code: str, message: str, run: dict[str, Any] | None = None) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message}
    if run is not None:
        error["run"] = run
    return {"error": error}


def json_error(status: int, code: str, message: str,
               run: dict[str, Any] | None = None) -> web.Response:
    return web.json_response(error_body(code, message, run), status=status,
                             headers={"Cache-Control": "no-store"})


def middleware(run_payload: RunPayload) -> Callable[..., Awaitable[web.StreamResponse]]:
    """The error middleware; ``run_payload`` renders the run a refusal carries."""

    @web.middleware
    async def errors(request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            return await handler(request)
        except ApiError as exc:
            language = request.get(LANGUAGE, ENGLISH)
            log.info("refused: %s %s, user %s: %s", request.method, request.path,
                     _user_id(request), exc.code)
            return json_error(exc.status, exc.code, language.render(exc.message))
        except Refusal as exc:
            language = request.get(LANGUAGE, ENGLISH)
            status, code, with_run = refusal_status(exc)
            run = getattr(exc, "run", None)
            payload = await run_payload(run, language) if with_run and run is not None else None
            log.info("refused: %s %s, user %s: %s (%s)", request.method, request.path,
                     _user_id(request), type(exc).__name__, exc)
            return json_error(status, code, language.render(exc.message), payload)
        except web.HTTPException as exc:
            if exc.status < 400:
                raise
            language = request.get(LANGUAGE, ENGLISH)
            if exc.status == 404:
                return json_error(404, "not_found", language.render(NOT_FOUND))
            if exc.status == 405:
                return json_error(405, "bad_request", language.render(NOT_ALLOWED))
            if exc.status == 413:
                return json_error(413, "bad_request", language.render(TOO_LARGE))
            return json_error(exc.status, "bad_request", language.render(BAD_JSON))
        except Exception:
            error_id = secrets.token_hex(4)
            log.exception("error %s: %s %s, user %s", error_id, request.method, request.path,
                          _user_id(request))
            language = request.get(LANGUAGE, ENGLISH)
            return json_error(500, "unexpected", language.format(UNEXPECTED, id=error_id))

    return errors


def _user_id(request: web.Request) -> object:
    user = request.get(USER)
    return getattr(user, "id", None)
