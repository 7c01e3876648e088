"""The components-v2 trial (issue 21 §1): a board as Discord's newer message layout, built
with discord.py's ``ui.LayoutView`` from the very payload the bot sent as an embed.

:func:`as_layout` turns a captured embed board into the message it would be as components
v2: one Container in the embed's colour holding a TextDisplay (author, title, description,
and the fields, if any, as bold lines), a MediaGallery with the table picture and the
button rows. The screens ``trial-embed`` and ``trial-v2`` show the same mid-game Donsol board
both ways (docs/screens/README.md says which was chosen and why).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import discord

from tools.screens.render import Message

#: Why the boards stay embeds (docs/screens/README.md shows it under the trial's screens).
DECISION = """\
## The components-v2 trial: the boards stay embeds

The same mid-game Donsol board, pictured form, both ways (`trial-embed`, `trial-v2`):
desktop 564 px as an embed against 587 px as components v2, phone 628 px against 611 px.
Components v2 is neither shorter nor easier to read where it matters: on a phone both put
the picture across the card at the same size; only on desktop does the media gallery show
the picture wider (488 px against the embed's 400 px cap). What it would cost:

- a message sent with IS_COMPONENTS_V2 can never go back to an embed, and every board a
  player clicks is an edit of an older message: old embed boards would be switched on their
  next click, for good, with no way back if the layout disappointed;
- v2 messages carry no embed at all: everything that adds to a board's embed (a daily's
  commitment and standing, a challenge's deadline, a series' total, the result card, replay
  steps, the refusals that redraw a board) would be rewritten as text displays, and all
  text shares one 4000-character budget instead of an embed's 6000;
- the buttons would move from `ButtonRows`' rows to `ActionRow`s of a `LayoutView` (the
  custom-id router is unaffected: it reads ids only), and the raw-payload harness and the
  load bench's stand-in would need to read v2 messages; simcord validates them already.

Saying each thing once (the pictured board's status line) and the larger picture labels
gave the height and readability the trial looked for; components v2 can be revisited once
the boards' words are settled, as one change of every board at once.
"""

#: Message flag IS_COMPONENTS_V2: the message has no content or embeds, only components.
IS_COMPONENTS_V2 = 1 << 15


def as_layout(message: Message) -> Message:
    """``message`` (an embed board) as a components-v2 message with the same text, picture
    and buttons. Needs a running event loop (discord.py's views do)."""
    (embed,) = message.embeds
    lines: list[str] = []
    if (author := embed.get("author", {}).get("name")):
        lines.append(f"-# {author}")
    if (title := embed.get("title")):
        lines.append(f"### {title}")
    if (description := embed.get("description")):
        lines.append(description)
    for f in embed.get("fields", []):
        lines.append(f"**{f['name']}**\n{f['value']}")
    if (footer := embed.get("footer", {}).get("text")):
        lines.append(f"-# {footer}")
    container = discord.ui.Container(accent_colour=embed.get("color"))
    container.add_item(discord.ui.TextDisplay("\n".join(lines)))
    if (image := embed.get("image", {}).get("url")):
        container.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem(image)))
    view = discord.ui.LayoutView()
    view.add_item(container)
    for row in message.components:
        buttons = [_button(b) for b in row.get("components", []) if b.get("type") == 2]
        if buttons:
            view.add_item(discord.ui.ActionRow(*buttons))
    return dataclasses.replace(message, embeds=[], content="", components=view.to_components())


def _button(b: dict[str, Any]) -> discord.ui.Button[Any]:
    emoji = b.get("emoji") or None
    return discord.ui.Button(
        style=discord.ButtonStyle(int(b.get("style", 2))), label=b.get("label"),
        custom_id=b.get("custom_id"), disabled=bool(b.get("disabled")),
        emoji=discord.PartialEmoji(name=emoji["name"], id=int(emoji["id"]) if emoji.get("id")
                                   else None) if emoji else None,
    )
