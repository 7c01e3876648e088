"""``make catalogs``: extract every marked string into ``language/locale/messages.pot``.

The template holds the strings marked in the code (``babel.cfg``; the keywords below) and
every string of the slash commands that Discord shows (descriptions, option names, choice
names: ``bot.i18n.command_strings``, read from the bot's own command tree, so a cog's
``@describe`` needs no marker). The Makefile then updates each language's ``.po`` from it
(``pybabel update``) and compiles them (``pybabel compile``).

    python -m tools.catalogs [--check]   # --check: exit 1 if the template is out of date
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

from bot.i18n import CHOICE_NAME, DOMAIN, LOCALE_DIR, OPTION_NAME, CommandString

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
KEYWORDS = {
    "_": None, "N_": None, "gettext": None,
    "Nn_": (1, 2), "_n": (1, 2), "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
}
#: What the translator of a command string is told (Discord's rules for it).
NOTES = {
    OPTION_NAME: "Slash command option name: lowercase, no spaces, at most 32 characters.",
    CHOICE_NAME: "Slash command choice: at most 100 characters.",
    None: "Slash command description: at most 100 characters.",
}


async def _command_strings() -> list[CommandString]:
    from bot.client import create_bot
    from bot.i18n import command_strings

    with tempfile.TemporaryDirectory() as folder:
        bot = create_bot(Path(folder) / "commands.sqlite3", sync="never", card_emoji=False,
                         solve_par=False, rate_days=False, remind=False, pictures=False,
                         embedded_activity=True)  # /table's strings too
        bot._connection.application_id = 1  # setup_hook logs the invite link with it
        await bot.setup_hook()
        try:
            return await command_strings(bot.tree)
        finally:
            await bot.core.close()


def template() -> Catalog:
    """The template as the code and the command tree stand now."""
    catalog = Catalog(project="Dungeon Deck", domain=DOMAIN, charset="utf-8")
    with (ROOT / "babel.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)
    for path, line, message, comments, context in extract_from_dir(
        ROOT, method_map, options_map, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",),
        strip_comment_tags=True,
    ):
        catalog.add(message, None, [(path, line)], auto_comments=comments, context=context)
    for found in asyncio.run(_command_strings()):
        note = f"{NOTES[found.context]} (/{found.command})"
        existing = catalog.get(found.text, context=found.context)
        if existing is not None:
            if note not in existing.auto_comments:
                existing.auto_comments.append(note)
            continue
        catalog.add(found.text, None, [], auto_comments=[note], context=found.context)
    return catalog


def keys(catalog: Catalog) -> set[tuple[str | None, str]]:
    return {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in catalog if m.id}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="only say whether the template is out of date (exit 1 if so)")
    args = parser.parse_args(argv)
    fresh = template()
    if args.check:
        with TEMPLATE.open("rb") as f:
            stale = keys(fresh) ^ keys(read_po(f))
        for context, text in sorted(stale, key=str):
            print(f"out of date: {context or ''} {text[:70]!r}")
        return 1 if stale else 0
    with TEMPLATE.open("wb") as f:
        write_po(f, fresh, width=100, omit_header=False, sort_output=True,
                 include_lineno=False)
    print(f"{TEMPLATE.relative_to(ROOT)}: {len(fresh)} messages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
