"""``python -m rules``: a thin terminal front end over the engines.

- ``play GAME``: play in the terminal, choosing among the numbered legal actions.
- ``deal GAME --seed N``: print a deal (the shuffled order and the opening board).
- ``replay GAME --seed N --actions FILE``: apply a transcript, print the final view as JSON.

The engines stay pure; all reading, printing and picking of a fresh seed happens here.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from collections.abc import Iterator
from typing import TextIO

from rules import GAMES, IllegalAction, find_game
from rules.cards import show
from rules.deal import DECKS, SEED_LIMIT, shuffled


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return args.run(args)
    except ValueError as exc:  # a bad seed, variant or deck: one sentence, no traceback
        print(f"error: {exc}", file=sys.stderr)
        return 2


# ----- play ---------------------------------------------------------------------------------


def cmd_play(args: argparse.Namespace, stdin: TextIO | None = None) -> int:
    game = find_game(args.game)
    seed = args.seed if args.seed is not None else secrets.randbelow(SEED_LIMIT)
    state = game.new(seed, args.variant)
    lines = _lines(stdin or sys.stdin)
    print(f"Dealing {game.title} ({game.variant(args.variant)}) with seed {seed}.")
    while True:
        print()
        print(game.text(state))
        legal = game.actions(state)
        if not legal:
            print(f"Final score: {game.view(state)['score_text']} {game.view(state)['score']}")
            return 0
        for i, action in enumerate(legal, 1):
            print(f"  {i:>2}. {action}")
        print("Choose a number or type an action (q to quit): ", end="", flush=True)
        answer = next(lines, None)
        if answer is None or answer in ("q", "quit", "exit"):
            print("\nLeaving the game.")
            return 0
        picked = answer.isdigit() and 0 < int(answer) <= len(legal)
        action = legal[int(answer) - 1] if picked else answer
        try:
            state = game.apply(state, action)
        except IllegalAction as exc:
            print(f"\nRefused: {exc}")


def _lines(stream: TextIO) -> Iterator[str]:
    for line in stream:
        yield line.strip()


# ----- deal ---------------------------------------------------------------------------------


def cmd_deal(args: argparse.Namespace) -> int:
    game = find_game(args.game)
    order, words = shuffled(args.seed, DECKS[game.key])
    print(f"{game.title} ({game.variant(args.variant)}), seed {args.seed}: {words} words used")
    print(f"Top first: {' '.join(order)}")
    print(f"           {show(order)}")
    print()
    print(game.text(game.new(args.seed, args.variant)))
    return 0


# ----- replay -------------------------------------------------------------------------------


def cmd_replay(args: argparse.Namespace) -> int:
    game = find_game(args.game)
    source = sys.stdin if args.actions == "-" else open(args.actions, encoding="utf-8")  # noqa: SIM115
    with source:
        transcript = [(n, line.strip()) for n, line in enumerate(source, 1)]
    state = game.new(args.seed, args.variant)
    for number, action in transcript:
        if not action or action.startswith("#"):
            continue
        try:
            state = game.apply(state, action)
        except IllegalAction as exc:
            print(f"line {number} ({action!r}): {exc}", file=sys.stderr)
            return 1
    print(json.dumps(game.view(state), indent=2, ensure_ascii=False))
    return 0


# ----- arguments ----------------------------------------------------------------------------


def _seed(text: str) -> int:
    value = int(text, 0)
    if not 0 <= value < SEED_LIMIT:
        raise argparse.ArgumentTypeError("a seed is an integer from 0 to 2**64 - 1")
    return value


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m rules",
        description="Play, deal and replay Dungeon Deck's solo card games in a terminal.",
    )
    sub = parser.add_subparsers(required=True, metavar="COMMAND")
    variants = "; ".join(f"{g.key} {'/'.join(g.variants)}" for g in GAMES.values())

    def game_args(p: argparse.ArgumentParser, seed_required: bool) -> None:
        p.add_argument("game", choices=list(GAMES), help="which game")
        p.add_argument("--variant", help=f"the variant: {variants} (default: the game's first)")
        p.add_argument(
            "--seed", type=_seed, required=seed_required,
            help="the deal's 64-bit seed" + ("" if seed_required else " (default: a random one)"),
        )

    play = sub.add_parser("play", help="play a game in the terminal",
                          description="Play a game: the board as text, numbered legal actions, "
                                      "the reason when an action is refused, the score at the end.")
    game_args(play, seed_required=False)
    play.set_defaults(run=cmd_play)

    deal = sub.add_parser("deal", help="print a deal",
                          description="Print the shuffled order of a seed's deal "
                                      "and the opening board.")
    game_args(deal, seed_required=True)
    deal.set_defaults(run=cmd_deal)

    rep = sub.add_parser("replay", help="replay a transcript and print the final view as JSON",
                         description="Apply a transcript (one action per line; blank lines and "
                                     "# comments skipped) and print the final view as JSON. An "
                                     "illegal line stops with its number and reason (exit 1).")
    game_args(rep, seed_required=True)
    rep.add_argument("--actions", default="-", metavar="FILE|-",
                     help="the transcript file, or - for standard input (the default)")
    rep.set_defaults(run=cmd_replay)
    return parser


if __name__ == "__main__":
    sys.exit(main())
