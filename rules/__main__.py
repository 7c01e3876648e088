"""``python -m rules``: a thin terminal front end over the engines.

- ``play GAME``: play in the terminal: the board, a numbered menu of moves, ``?`` for the rules;
  ``--save FILE`` writes the moves as a transcript ``replay`` reads (never over an existing
  file). In a terminal, the prompt has line editing and history (``readline``) where present.
- ``rules GAME``: print the rules of a game (the same text as ``/rules`` and ``docs/games``).
- ``deal GAME --seed N``: print a deal (the shuffled order and the opening board).
- ``replay GAME --seed N --actions FILE``: apply a transcript, print the final view as JSON.
- ``solve GAME --seed N [--budget SECONDS] [--save FILE]``: the best score the deal allows
  (perfect information), whether it can be won, exact or a lower bound, and the line that
  reaches it (``--save``: as a transcript). Ctrl-C stops the search and prints the best so far.

Output piped into a command that stops reading (``| head``) ends quietly.

The terminal speaks the language of ``LANGUAGE``/``LC_ALL``/``LC_MESSAGES``/``LANG`` (the
first one set, as gettext reads them), or of ``--lang CODE``: every sentence an engine says
(a :class:`~rules.words.Phrase`) and the play loop's own, through the compiled catalogs of
``language/locale`` (read here with the standard ``gettext`` module; a ``.po`` newer than its
``.mo`` is compiled in memory with Babel), and the rules text in that language where the
game has one. A language without a catalog, or a catalog not complete, is English whole.

Each command is one subparser with a ``run`` function, so adding one is a small change.
The engines stay pure; all reading, printing and picking of a fresh seed happens here.
"""

from __future__ import annotations

import argparse
import contextlib
import gettext
import io
import json
import os
import secrets
import signal
import sys
import textwrap
import time
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO

from rules import GAMES, IllegalAction, find_game
from rules.cards import JOKERS, show
from rules.deal import SEED_LIMIT, commitment, shuffled
from rules.engine import Game
from rules.notation import read_move
from rules.rulebook import terminal_text
from rules.solver import solve
from rules.words import N_, Message, Phrase, said

QUIT = ("q", "quit", "exit")
HELP = ("?", "help", "h", "rules")
BOARD = ("b", "board")
#: A refusal quotes at most this much of what was typed.
QUOTE_LIMIT = 40
#: The exit status of a command whose reader went away (as if killed by SIGPIPE).
EXIT_BROKEN_PIPE = 128 + 13


class Refusal(Exception):
    """A problem with the command line or its files, said in one sentence (exit status 2)."""


# ----- the language -------------------------------------------------------------------------

#: Where the catalogs are: ``language/locale/<lang>/LC_MESSAGES/messages.mo`` (or its ``.po``).
LOCALE_DIR = Path(__file__).resolve().parent.parent / "language" / "locale"
DOMAIN = "messages"
#: The environment variables that choose a language, in gettext's order.
LANGUAGE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


class Speaker:
    """One language's words for the terminal: :meth:`say` turns an engine's phrase (or a
    marked sentence) into that language; English says everything as it is."""

    def __init__(self, code: str, translations: gettext.NullTranslations) -> None:
        self.code = code
        self.translations = translations

    def lookup(self, singular: str, plural: str | None, count: int | None) -> str:
        if plural is None:
            return self.translations.gettext(singular)
        return self.translations.ngettext(singular, plural, 1 if count is None else count)

    def say(self, text: str | Message) -> str:
        """``text`` in this language: a phrase with its fields, a plain ``str`` looked up whole
        (a marked sentence, or, never marked, itself)."""
        return said(text, self.lookup)

    def format(self, template: str, /, **params: object) -> str:
        """A marked template of the terminal's own, translated, then filled."""
        return self.say(Phrase(template, **params))


ENGLISH = Speaker("en", gettext.NullTranslations())


def environment_language(environ: dict[str, str] | None = None) -> str | None:
    """The language the environment asks for (``fr`` of ``fr_FR.UTF-8``), None for ``C``,
    ``POSIX`` or nothing set. ``LANGUAGE`` may list several (``fr:de``): the first counts."""
    environ = dict(os.environ) if environ is None else environ
    for name in LANGUAGE_VARIABLES:
        value = environ.get(name, "").split(":")[0].split(".")[0].split("@")[0]
        if value:
            return None if value in ("C", "POSIX") else value
    return None


def speaker(code: str | None, directory: Path = LOCALE_DIR) -> Speaker:
    """The terminal's words in ``code`` (``fr``, ``fr_FR``, ``pt-BR``): its catalog, else its
    base language's, else English."""
    if not code:
        return ENGLISH
    tag = code.replace("-", "_")
    for candidate in dict.fromkeys((tag, tag.split("_")[0])):
        if candidate.casefold() in ("en", "en_us", "en_gb"):
            return ENGLISH
        found = _translations(directory / candidate / "LC_MESSAGES")
        if found is not None:
            return Speaker(candidate.replace("_", "-"), found)
    return ENGLISH


def _translations(folder: Path) -> gettext.GNUTranslations | None:
    """A folder's catalog: the ``.mo``, or its ``.po`` compiled in memory when the ``.mo`` is
    missing or older (a checkout without ``make``). None when neither is there, or when the
    catalog leaves a message untranslated: a reader then gets English whole, never a mix."""
    mo, po = folder / f"{DOMAIN}.mo", folder / f"{DOMAIN}.po"
    if po.exists() and (not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime):
        try:
            from babel.messages.mofile import write_mo
            from babel.messages.pofile import read_po
        except ImportError:  # no Babel: only a compiled catalog can be read
            return _read_mo(mo) if mo.exists() else None
        with po.open("rb") as f:
            catalog = read_po(f)
        if any(m.id and (m.fuzzy or not _translated(m.string)) for m in catalog):
            return None
        compiled = io.BytesIO()
        write_mo(compiled, catalog)
        compiled.seek(0)
        return gettext.GNUTranslations(compiled)
    return _read_mo(mo) if mo.exists() else None


def _translated(string: object) -> bool:
    return all(string) if isinstance(string, (tuple, list)) else bool(string)


def _read_mo(path: Path) -> gettext.GNUTranslations:
    with path.open("rb") as f:
        return gettext.GNUTranslations(f)


def _rules_text(key: str, words: Speaker) -> str:
    """The game's rules for the terminal, in the reader's language where the game has a text
    in it (else English)."""
    return terminal_text(key, lang=words.code)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    args.words = speaker(args.lang if args.lang else environment_language())
    try:
        return args.run(args)
    except KeyboardInterrupt:  # Ctrl-C: stop quietly, as a shell command does
        print("\nInterrupted.", file=sys.stderr)
        return 130
    except (Refusal, ValueError) as exc:  # a bad seed, variant, deck or file: one sentence
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `| head` stopped reading: stop writing, quietly
        # Python flushes stdout again at exit; point it at /dev/null so that says nothing.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE


# ----- play ---------------------------------------------------------------------------------


def cmd_play(args: argparse.Namespace, stdin: TextIO | None = None) -> int:
    game = find_game(args.game)
    variant = _variant(game, args.variant)
    seed = args.seed if args.seed is not None else secrets.randbelow(SEED_LIMIT)
    state = game.new(seed, variant)
    save = _open_save(args.save, game, variant, seed) if args.save else None
    read = _reader(stdin or sys.stdin)
    words: Speaker = getattr(args, "words", ENGLISH)
    print(words.format(N_("Dealing {game} ({variant}) with seed {seed}. Type ? for the rules."),
                       game=game.title, variant=game.variant_name(variant), seed=seed))
    try:
        while True:
            print()
            print(words.say(game.text(state)))
            legal = game.actions(state)
            if not legal:
                print()
                print(words.format(N_("Final score: {score}."),
                                   score=game.view(state)["score_text"]))
                if save:
                    print(words.format(N_("Moves saved to {file}."), file=save.name))
                return 0
            view = game.view(state)
            labels = [words.say(game.label(view, a)) for a in legal]
            _print_menu(legal, labels)
            action = _ask(game, state, read, legal, labels, words)
            if action is None:
                print(_leaving(save, words))
                return 0
            state = game.apply(state, action)
            if save:
                save.write(action + "\n")
                save.flush()
    except KeyboardInterrupt:  # Ctrl-C: leave quietly, as a shell command does
        print(_leaving(save, words), file=sys.stderr)
        return 130
    finally:
        if save:
            save.close()


def _leaving(save: TextIO | None, words: Speaker = ENGLISH) -> str:
    if save:
        return "\n" + words.format(N_("Leaving the game. Moves saved to {file}."), file=save.name)
    return "\n" + words.say(N_("Leaving the game."))


def _ask(
    game: Game[Any], state: Any, read: Callable[[str], str | None], legal: list[str],
    labels: list[str], words: Speaker = ENGLISH,
) -> str | None:
    """Read lines until one is a legal action (returned) or a request to quit (None)."""
    while True:
        answer = read(words.format(N_("Your move ({span}, ? for the rules, q to quit): "),
                                   span=_span(legal)))
        if answer is None or answer.lower() in QUIT:
            return None
        if answer.lower() in HELP:
            print()
            print(_rules_text(game.key, words))
            print()
            print(_how_to_type(game, legal, labels, words))
            continue
        if answer.lower() in BOARD or not answer:
            _print_menu(legal, labels)
            continue
        reading = read_move(answer, legal, labels)
        if reading.action is not None:
            return reading.action
        if reading.number is not None:
            reason = words.format(N_("There is no move {number}."), number=reading.number)
        elif needs := [a for a in legal if a.startswith(f"{reading.guess} ")]:
            reason = words.format(N_("{move} which card? Type it with the card, such as "
                                     "`{example}`."), move=reading.guess.capitalize(),
                                  example=needs[0])
        else:
            guess = reading.guess or answer
            # The engine quotes the move as it read it; quote the player's own words, short.
            reason = words.say(game.refusal(state, guess)).replace(repr(guess),
                                                                   repr(_quote(answer)))
        print(words.format(N_("Refused: {reason} {choices}"), reason=reason,
                           choices=_accepted(legal, words)))


def _quote(typed: str) -> str:
    typed = " ".join(typed.split())
    return typed if len(typed) <= QUOTE_LIMIT else typed[: QUOTE_LIMIT - 1] + "…"


def _variant(game: Game[Any], text: str | None) -> str:
    """The variant named by ``text`` in any case (``HARD`` is ``hard``), or the default."""
    if text is not None:
        text = next((v for v in game.variants if v.casefold() == text.casefold()), text)
    return game.variant(text)


def _print_menu(legal: list[str], labels: list[str]) -> None:
    width = max(_columns(label) for label in labels)
    for i, (action, label) in enumerate(zip(legal, labels, strict=True), 1):
        same = label.casefold() == action.casefold()
        typed = "" if same else " " * (width - _columns(label) + 3) + action
        print(f"  {i:>2}. {label}{typed}")


def _columns(text: str) -> int:
    """How many terminal columns ``text`` takes: wide characters (🃏) take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _accepted(legal: list[str], words: Speaker = ENGLISH) -> str:
    return words.format(N_("Choose {span}, or type a move such as `{example}`."),
                        span=_span(legal), example=legal[0])


def _span(legal: list[str]) -> str:
    return "1" if len(legal) == 1 else f"1–{len(legal)}"


def _joker_words(game: Game[Any]) -> Phrase:
    """How to type the jokers the game's deck holds (Tomb has only the red one)."""
    jokers = [card for card in JOKERS if card in game.deck]
    if not jokers:
        return Phrase(N_("no joker in this deck"))
    if len(jokers) > 1:
        return Phrase(N_("jokers as {codes} or {joker}"), codes=", ".join(jokers), joker="🃏")
    return Phrase(N_("the joker as {codes} or {joker}"), codes=jokers[0], joker="🃏")


def _how_to_type(game: Game[Any], legal: list[str], labels: list[str],
                 words: Speaker = ENGLISH) -> str:
    text = words.format(
        N_("Type a move's number ({span}), or the move itself as the menu shows it, such as "
           "`{example}`, in any case; cards as 4S, 4s or 4♠ (10 as 10 or T, {jokers}). A menu "
           "line's words work too, such as `{label}`. b shows the moves again, ? these rules, "
           "q leaves the game."),
        span=_span(legal), example=legal[0], jokers=_joker_words(game), label=labels[0])
    return "\n".join([words.say(N_("HOW TO TYPE YOUR MOVES")), *textwrap.wrap(text, 78)])


def _open_save(path: str, game: Game[Any], variant: str, seed: int) -> TextIO:
    """A new transcript file with its header; :class:`Refusal` if ``path`` exists (a saved
    game is never written over)."""
    if os.path.isdir(path):
        raise Refusal(f"cannot write the moves to {path}: it is a folder")
    try:
        save = open(path, "x", encoding="utf-8")  # noqa: SIM115 (closed by the caller)
    except FileExistsError:
        raise Refusal(f"{path} exists already: choose another file (nothing is written "
                      "over a saved game)") from None
    except OSError as exc:
        raise Refusal(f"cannot write the moves to {path}: {exc.strerror or exc}") from None
    save.write(_header(game, variant, seed, path))
    save.flush()
    return save


def _header(game: Game[Any], variant: str, seed: int, path: str) -> str:
    return (
        f"# {game.title} ({variant}), seed {seed}. Replay with:\n"
        f"# python -m rules replay {game.key} --variant {variant} --seed {seed} --actions {path}\n"
    )


def _reader(stream: TextIO) -> Callable[[str], str | None]:
    """A function that shows a prompt and returns the next line typed (None at the end).

    At a terminal it is ``input``, with ``readline``'s line editing and history where the
    platform has it (arrow keys move the cursor instead of printing ``^[[A``)."""
    if stream is sys.stdin and stream.isatty():
        # Importing readline is what turns line editing on; Windows may lack it.
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401

        def read_terminal(prompt: str) -> str | None:
            try:
                return input(prompt).strip()
            except EOFError:
                return None

        return read_terminal
    lines = _lines(stream)

    def read_stream(prompt: str) -> str | None:
        print(prompt, end="", flush=True)
        return next(lines, None)

    return read_stream


def _lines(stream: TextIO) -> Iterator[str]:
    for line in stream:
        yield line.strip()


# ----- rules --------------------------------------------------------------------------------


def cmd_rules(args: argparse.Namespace) -> int:
    print(_rules_text(args.game, getattr(args, "words", ENGLISH)))
    return 0


# ----- deal ---------------------------------------------------------------------------------


def cmd_deal(args: argparse.Namespace) -> int:
    game = find_game(args.game)
    variant = _variant(game, args.variant)
    order, words = shuffled(args.seed, game.deck)
    print(f"{game.title} ({variant}), seed {args.seed}")
    print(f"Commitment (SHA-256 of the seed): {commitment(args.seed)}")
    print(f"The {len(order)} cards shuffled, top first:")
    print(f"  {' '.join(order)}")
    print(f"  {show(order)}")
    if args.verbose:
        print(f"Stream words used by the shuffle: {words}")
    print()
    print(getattr(args, "words", ENGLISH).say(game.text(game.new(args.seed, variant))))
    return 0


# ----- replay -------------------------------------------------------------------------------


def cmd_replay(args: argparse.Namespace) -> int:
    game = find_game(args.game)
    variant = _variant(game, args.variant)
    transcript = _read_transcript(args.actions)
    state = game.new(args.seed, variant)
    for number, action in transcript:
        if not action or action.startswith("#"):
            continue
        try:
            state = game.apply(state, action)
        except IllegalAction as exc:
            reason = getattr(args, "words", ENGLISH).say(exc.message)
            print(f"line {number} ({action!r}): {reason}", file=sys.stderr)
            return 1
    print(json.dumps(game.view(state), indent=2, ensure_ascii=False))
    return 0


def _read_transcript(path: str) -> list[tuple[int, str]]:
    if path == "-":
        return [(n, line.strip()) for n, line in enumerate(sys.stdin, 1)]
    try:
        with open(path, encoding="utf-8") as source:
            return [(n, line.strip()) for n, line in enumerate(source, 1)]
    except FileNotFoundError:
        raise Refusal(f"there is no file {path}") from None
    except IsADirectoryError:
        raise Refusal(f"{path} is a folder, not a transcript file") from None
    except UnicodeDecodeError:
        raise Refusal(f"{path} is not a text file (UTF-8)") from None
    except OSError as exc:
        raise Refusal(f"cannot read {path}: {exc.strerror or exc}") from None


# ----- solve --------------------------------------------------------------------------------


def cmd_solve(args: argparse.Namespace) -> int:
    game = find_game(args.game)
    variant = _variant(game, args.variant)
    save = _open_save(args.save, game, variant, args.seed) if args.save else None
    start = time.monotonic()
    interrupted = False

    def clock() -> float:
        # After Ctrl-C the deadline reads as passed: the search returns its best line so far.
        return float("inf") if interrupted else time.monotonic()

    def interrupt(signum: int, frame: object) -> None:
        nonlocal interrupted
        if interrupted:  # a second Ctrl-C: stop at once
            raise KeyboardInterrupt
        interrupted = True

    previous = signal.signal(signal.SIGINT, interrupt)
    try:
        found = solve(game.key, args.seed, variant, deadline=start + args.budget, clock=clock)
    finally:
        signal.signal(signal.SIGINT, previous)
    took = time.monotonic() - start
    winnable = {True: "yes", False: "no", None: "not known (no win found in the search)"}
    words: Speaker = getattr(args, "words", ENGLISH)
    print(f"{game.title} ({variant}), seed {args.seed}: {words.say(found.text)}")
    print(f"Winnable: {winnable[found.winnable]}")
    if found.exact:
        print(f"Exact: yes, nothing better exists ({found.nodes} positions, {took:.1f} s).")
    elif interrupted:
        print(f"Exact: no, a lower bound: interrupted after {took:.1f} s "
              f"({found.nodes} positions searched).")
    else:
        print(f"Exact: no, a lower bound: the {args.budget:g} s budget ran out "
              f"({found.nodes} positions searched).")
    print(f"The line ({len(found.actions)} moves):")
    for i, action in enumerate(found.actions, 1):
        print(f"  {i:>3}. {action}")
    if save is not None:
        with save:
            save.writelines(f"{action}\n" for action in found.actions)
        print(f"The line saved to {save.name}.")
    return 130 if interrupted else 0


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise argparse.ArgumentTypeError(f"a budget is a number of seconds above 0, not {text!r}")
    return value


# ----- arguments ----------------------------------------------------------------------------


def seed(text: str) -> int:
    """A seed from the command line: decimal, or 0x… hexadecimal."""
    try:
        value = int(text, 0)
    except ValueError:
        value = -1
    if not 0 <= value < SEED_LIMIT:
        raise argparse.ArgumentTypeError(
            f"a seed is a whole number from 0 to 2**64 - 1, not {text!r}"
        )
    return value


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m rules",
        description="Play, deal and replay Dungeon Deck's solo card games in a terminal.",
    )
    language_help = ("the language to play in (fr, de, ...; default: LANGUAGE, LC_ALL, "
                     "LC_MESSAGES or LANG)")
    parser.add_argument("--lang", metavar="CODE", help=language_help)
    sub = parser.add_subparsers(required=True, metavar="COMMAND")
    # --lang after the command too (python -m rules play donsol --lang fr); the top-level
    # default stands when a subcommand's is left out.
    shared = argparse.ArgumentParser(add_help=False)
    shared.add_argument("--lang", metavar="CODE", default=argparse.SUPPRESS, help=language_help)
    variants = "; ".join(f"{g.key} {'/'.join(g.variants)}" for g in GAMES.values())

    def game_args(p: argparse.ArgumentParser, seed_required: bool) -> None:
        p.add_argument("game", choices=list(GAMES), help="which game")
        p.add_argument("--variant", help=f"the variant: {variants} (default: the game's first)")
        p.add_argument(
            "--seed", type=seed, required=seed_required,
            help="the deal's 64-bit seed" + ("" if seed_required else " (default: a random one)"),
        )

    play = sub.add_parser("play", parents=[shared], help="play a game in the terminal",
                          description="Play a game: the board as text, a numbered menu of moves, "
                                      "the reason when a move is refused, the score at the end. "
                                      "Type ? during the game for the rules.")
    game_args(play, seed_required=False)
    play.add_argument("--save", metavar="FILE",
                      help="write the moves to FILE (a new file) as they are played, as a "
                           "transcript that replay reads")
    play.set_defaults(run=cmd_play)

    rules = sub.add_parser("rules", parents=[shared], help="print the rules of a game",
                           description="Print the rules of a game: the same text as /rules in "
                                       "Discord and docs/games.")
    rules.add_argument("game", choices=list(GAMES), help="which game")
    rules.set_defaults(run=cmd_rules)

    deal = sub.add_parser("deal", parents=[shared], help="print a deal",
                          description="Print a seed's deal: its commitment, the shuffled cards "
                                      "top first and the opening board (docs/deal.md says how "
                                      "a deal is made).")
    game_args(deal, seed_required=True)
    deal.add_argument("--verbose", action="store_true",
                      help="also show how many words of the random stream the shuffle used")
    deal.set_defaults(run=cmd_deal)

    rep = sub.add_parser("replay", parents=[shared],
                         help="replay a transcript and print the final view as JSON",
                         description="Apply a transcript (one action per line; blank lines and "
                                     "# comments skipped) and print the final view as JSON. An "
                                     "illegal line stops with its number and reason (exit 1).")
    game_args(rep, seed_required=True)
    rep.add_argument("--actions", default="-", metavar="FILE|-",
                     help="the transcript file, or - for standard input (the default)")
    rep.set_defaults(run=cmd_replay)

    sol = sub.add_parser("solve", parents=[shared],
                         help="the best score a deal allows, and its line",
                         description="Search a deal with every card known: print the best "
                                     "score, whether the deal can be won, whether that is exact "
                                     "or a lower bound (the budget ran out), and the moves.")
    game_args(sol, seed_required=True)
    sol.add_argument("--budget", type=_seconds, default=60.0, metavar="SECONDS",
                     help="stop searching after this long and report the best line found "
                          "(default: 60; Ctrl-C stops it sooner, the same way)")
    sol.add_argument("--save", metavar="FILE",
                     help="also write the line to FILE as a transcript that replay reads")
    sol.set_defaults(run=cmd_solve)
    return parser


if __name__ == "__main__":
    sys.exit(main())
