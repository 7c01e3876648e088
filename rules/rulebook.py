"""The rules of each game as players read them: one text per game, three renderings.

The text of game ``key`` is ``rules/<key>/rules.md``, in the game's package, shipped as package
data, so it is found from a checkout, an editable install and a regular one alike.
``docs/games/<key>.md`` in the repository opens with the same text (a test keeps them equal);
``/rules`` in Discord and the terminal's ``help`` render it. Reading a file that ships with the
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

#: The rules text's file name inside each game's package.
TEXT_NAME = "rules.md"
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


@cache
def source(key: str) -> str:
    """The Markdown text of game ``key``, exactly as written.

    Raises ``LookupError`` when the game has no rules text.
    """
    path = resources.files("rules").joinpath(key, TEXT_NAME)
    try:
        return path.read_text(encoding="utf-8")
    except (FileNotFoundError, IsADirectoryError):
        raise LookupError(f"no rules text for the game {key!r}") from None


def title(key: str) -> str:
    """The text's ``# Title`` line, without the ``#``."""
    first = source(key).splitlines()[0]
    return first.removeprefix("# ").strip()


def blocks(key: str) -> list[Block]:
    """The text after its title, as headings, paragraphs and list items, lines joined."""
    out: list[Block] = []
    for chunk in re.split(r"\n\s*\n", source(key).strip()):
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


def discord_text(key: str) -> str:
    """The text for a Discord embed's description: headings bold, lists with bullets."""
    parts: list[str] = []
    after_heading = True
    for block in blocks(key):
        if block.kind == "heading":
            parts.append(f"\n**{block.text}**")
        elif block.kind == "item":
            parts.append(f"{_bullet(block)} {block.text}")
        else:
            parts.append(block.text if after_heading else f"\n{block.text}")
        after_heading = block.kind == "heading"
    return "\n".join(parts).strip()


def terminal_text(key: str, width: int = 78) -> str:
    """The text for a terminal: plain words, wrapped to ``width`` columns."""
    lines = [title(key).upper()]
    after_heading = False
    for block in blocks(key):
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
