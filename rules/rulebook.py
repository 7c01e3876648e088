"""The rules of each game as players read them: one text per game and language, three renderings.

The English text of game ``key`` is ``rules/<key>/rules.md``, in the game's package, shipped as
package data, so it is found from a checkout, an editable install and a regular one alike; the
text in language ``code`` is ``rules/<key>/rules.<code>.md`` (``rules.fr.md``,
``rules.pt-BR.md``). A language without its own text reads the English one (``pt-BR`` is looked
up as ``pt-BR``, then ``pt``, then English): :func:`language` says which text a reader gets.
``docs/games/<key>.md`` in the repository opens with the English text and
``docs/games/<code>/<key>.md`` with each other language's (tests keep them equal); ``/rules`` in
Discord and the terminal's ``help`` render it. Reading a file that ships with the
package is the only I/O here: the result depends on nothing but the installed package.

The texts use a small part of Markdown, which the renderers understand:

- ``# Title`` on the first line, ``## Heading`` for sections;
- paragraphs, whose lines are joined (a blank line separates them);
- ``- item`` and ``1. item`` lists, an item's continuation lines indented;
- ``**bold**`` and ``*italic*``.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from functools import cache
from importlib import resources

#: The English rules text's file name inside each game's package.
TEXT_NAME = "rules.md"
#: The language of ``rules.md``.
SOURCE_LANGUAGE = "en"
_TEXT_OF = re.compile(r"^rules\.([A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*)\.md$")
#: Discord's limit for an embed description.
DISCORD_DESCRIPTION_MAX = 4096

_ITEM = re.compile(r"^(- |\d+\. )")
_EMPHASIS = re.compile(r"\*\*(.+?)\*\*|\*(.+?)\*")


@dataclass(frozen=True)
class Block:
    """One block of a text: a ``heading``, a ``paragraph`` or a list ``item``."""

    kind: str
    text: str
    marker: str = ""  # an item's "- " or "1. "


def file_name(lang: str = SOURCE_LANGUAGE) -> str:
    """The rules text's file name in language ``lang``: ``rules.md``, ``rules.fr.md``."""
    return TEXT_NAME if lang == SOURCE_LANGUAGE else f"rules.{lang}.md"


@cache
def languages(key: str) -> tuple[str, ...]:
    """The languages game ``key`` has a rules text in, English first, then by code."""
    folder = resources.files("rules").joinpath(key)
    found = sorted(m.group(1) for entry in folder.iterdir()
                   if (m := _TEXT_OF.match(entry.name)) and m.group(1) != SOURCE_LANGUAGE)
    return (SOURCE_LANGUAGE, *found)


def language(key: str, lang: str = SOURCE_LANGUAGE) -> str:
    """The language of the text a reader of ``lang`` gets for game ``key``: ``lang`` itself
    (``fr``, ``pt-BR``; ``pt_BR`` is read as ``pt-BR``), its base language (``pt``), else
    English. Raises ``LookupError`` when the game has no rules text."""
    source(key)  # the English text must exist, whatever the language
    have = {code.casefold(): code for code in languages(key)}
    tag = lang.replace("_", "-")
    for candidate in (tag, tag.split("-")[0]):
        if candidate.casefold() in have:
            return have[candidate.casefold()]
    return SOURCE_LANGUAGE


@cache
def _read(key: str, lang: str) -> str:
    path = resources.files("rules").joinpath(key, file_name(lang))
    try:
        return path.read_text(encoding="utf-8")
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        raise LookupError(f"no rules text for the game {key!r}") from None


def source(key: str, lang: str = SOURCE_LANGUAGE) -> str:
    """The Markdown text of game ``key`` in ``lang`` (see :func:`language`), exactly as
    written.

    Raises ``LookupError`` when the game has no rules text.
    """
    if lang == SOURCE_LANGUAGE:
        return _read(key, SOURCE_LANGUAGE)
    return _read(key, language(key, lang))


def text(key: str, lang: str = SOURCE_LANGUAGE) -> str:
    """The rules text of game ``key`` in ``lang`` as Markdown: :func:`source`'s plain name."""
    return source(key, lang)


def title(key: str, lang: str = SOURCE_LANGUAGE) -> str:
    """The text's ``# Title`` line, without the ``#``."""
    first = source(key, lang).splitlines()[0]
    return first.removeprefix("# ").strip()


def blocks(key: str, lang: str = SOURCE_LANGUAGE) -> list[Block]:
    """The text after its title, as headings, paragraphs and list items, lines joined."""
    out: list[Block] = []
    for chunk in re.split(r"\n\s*\n", source(key, lang).strip()):
        lines = chunk.splitlines()
        if lines[0].startswith("# "):
            lines = lines[1:]
            if not lines:
                continue
        if lines[0].startswith("## "):
            out.append(Block("heading", lines[0][3:].strip()))
            lines = lines[1:]
        item: list[str] | None = None
        marker = ""
        paragraph: list[str] = []
        for line in lines:
            found = _ITEM.match(line)
            if found:
                if paragraph:
                    out.append(Block("paragraph", " ".join(paragraph)))
                    paragraph = []
                if item is not None:
                    out.append(Block("item", " ".join(item), marker))
                marker, item = found.group(1), [line[found.end() :].strip()]
            elif item is not None:
                item.append(line.strip())
            else:
                paragraph.append(line.strip())
        if paragraph:
            out.append(Block("paragraph", " ".join(paragraph)))
        if item is not None:
            out.append(Block("item", " ".join(item), marker))
    return out


def discord_text(key: str, lang: str = SOURCE_LANGUAGE) -> str:
    """The text for a Discord embed's description: headings bold, lists with bullets."""
    parts: list[str] = []
    after_heading = True
    for block in blocks(key, lang):
        if block.kind == "heading":
            parts.append(f"\n**{block.text}**")
        elif block.kind == "item":
            parts.append(f"{_bullet(block)} {block.text}")
        else:
            parts.append(block.text if after_heading else f"\n{block.text}")
        after_heading = block.kind == "heading"
    return "\n".join(parts).strip()


def terminal_text(key: str, width: int = 78, lang: str = SOURCE_LANGUAGE) -> str:
    """The text for a terminal: plain words, wrapped to ``width`` columns, in ``lang``."""
    lines = [title(key, lang).upper()]
    after_heading = False
    for block in blocks(key, lang):
        text = plain(block.text)
        if block.kind == "heading":
            lines += ["", text, "─" * len(text)]
        elif block.kind == "item":
            bullet = _bullet(block)
            lines += textwrap.wrap(
                text, width, initial_indent=f"  {bullet} ",
                subsequent_indent=" " * (len(bullet) + 3),
            )
        else:
            lines += [*([] if after_heading else [""]), *textwrap.wrap(text, width)]
        after_heading = block.kind == "heading"
    return "\n".join(lines)


def _bullet(block: Block) -> str:
    return "•" if block.marker == "- " else block.marker.strip()


def plain(text: str) -> str:
    """``text`` without its ``**bold**`` and ``*italic*`` marks."""
    return _EMPHASIS.sub(lambda m: m.group(1) or m.group(2), text)
