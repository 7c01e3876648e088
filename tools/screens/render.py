"""One Discord message as an HTML page in Discord's dark theme, for screenshots of the bot.

:func:`page` takes a :class:`Message` — the payload the bot sent (content, embeds, components
and attachments, as simcord stores them) plus who ran which command and when — and returns a
self-contained HTML page (pictures inlined as data URIs, no web fonts, no scripts) at one of
two widths: ``desktop`` (Discord's desktop client: inline fields in columns of up to three,
embed images at most 400×300 px) or ``phone`` (the mobile app: the embed as wide as the
screen, fields stacked, the image across the embed, button rows wrapping).

What it models: the message header (avatar, name, APP tag, time; "alice used /play" above a
command's answer; "Only you can see this" below an ephemeral one), the embed (colour bar,
author, title, description, fields, image, footer), buttons in Discord's styles (disabled at
50 %), custom emoji as the card faces the bot uploads, and Discord's markdown subset (bold,
italic, underline, strike-through, spoilers, code, code blocks, quotes, headings, lists,
masked links, mentions, ``<t:…>`` timestamps). Colours and sizes follow Discord's client
(2025); the font is Noto Sans (gg sans is not free), so line breaks can differ by a word.
"""

from __future__ import annotations

import base64
import html
import io
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from PIL import Image

Width = Literal["desktop", "phone"]
#: Page width in CSS pixels of each layout (what the screenshots are taken at).
WIDTHS: dict[Width, int] = {"desktop": 1000, "phone": 390}
BACKGROUND = "#313338"
#: Discord's caps on an embed's image: scaled down, never up, to fit this box (desktop).
IMAGE_BOX = (400, 300)
#: Button styles (discord.ButtonStyle values) -> background colour.
BUTTON_COLOURS = {1: "#5865f2", 2: "#4e5058", 3: "#248046", 4: "#da373c", 5: "#4e5058",
                  6: "#5865f2"}

EmojiPng = Callable[[str], bytes | None]


@dataclass
class Message:
    """A message as Discord holds it, and what the client shows around it."""

    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    #: Uploaded files by name (``attachment://NAME`` in an embed points at one).
    attachments: dict[str, bytes] = field(default_factory=dict)
    ephemeral: bool = False
    #: The player who ran the command this message answers, and the command (``play``).
    user: str | None = None
    command: str | None = None
    #: When it was sent (the header's time, and "now" for relative timestamps).
    at: datetime = field(default_factory=lambda: datetime(2026, 12, 5, 12, 0, tzinfo=UTC))
    #: Mention ids -> names: users (``<@id>``), channels (``<#id>``) and roles (``<@&id>``).
    names: dict[int, str] = field(default_factory=dict)
    author: str = "Dungeon Deck"


def card_face(name: str) -> bytes | None:
    """The PNG the bot uploads as the emoji ``name`` (``dd_AS`` -> the ace of spades)."""
    from bot.pictures.emoji import PREFIX
    from bot.pictures.faces import FACE_NAMES, face_png

    code = name.removeprefix(PREFIX)
    return face_png(code) if name.startswith(PREFIX) and code in FACE_NAMES else None


def data_uri(png: bytes, kind: str = "image/png") -> str:
    return f"data:{kind};base64,{base64.b64encode(png).decode()}"


# ----- markdown ---------------------------------------------------------------------------

#: Symbols of the Basic Multilingual Plane drawn as emoji without U+FE0F (the others, like ♠
#: and ⚔, are text unless U+FE0F follows, as in Discord).
_BMP_EMOJI = ("⌚⌛⏩⏪⏫⏬⏰⏳☔☕♈♉♊♋♌♍♎♏♐♑♒♓♿⚓⚡⚪⚫"
              "⚽⚾⛄⛅⛎⛔⛪⛲⛳⛵⛺⛽✅✊✋✨❌❎❓❔❕❗"
              "➕➖➗➰➿⬛⬜⭐⭕")
_UNICODE_EMOJI = re.compile(
    "(?:[\U0001f000-\U0001faff]|[\u2190-\u2bff]\ufe0f|[" + _BMP_EMOJI + "])"
    "(?:\ufe0f|[\U0001f3fb-\U0001f3ff]|\u200d(?:[\U0001f000-\U0001faff]|[\u2190-\u2bff]\ufe0f?))*"
)
_INLINE = re.compile(
    r"""\\(?P<esc>[^\w\s])
    |(?P<tick>`+)(?P<code>.+?)(?P=tick)
    |<(?P<anim>a?):(?P<ename>\w{2,32}):(?P<eid>\d+)>
    |<t:(?P<ts>-?\d+)(?::(?P<tsf>[tTdDfFR]))?>
    |<@!?(?P<user>\d+)>
    |<@&(?P<role>\d+)>
    |<\#(?P<chan>\d+)>
    |\*\*\*(?P<boldital>.+?)\*\*\*
    |\*\*(?P<bold>.+?)\*\*
    |__(?P<under>.+?)__
    |\*(?P<ital>[^\s*](?:.*?[^\s\\])?)\*
    |(?<![\w\\])_(?P<ital2>[^_\s](?:[^_]*?[^_\s])?)_(?!\w)
    |~~(?P<strike>.+?)~~
    |\|\|(?P<spoiler>.+?)\|\|
    |\[(?P<ltext>[^\]]+)\]\(<?(?P<lurl>https?://[^)\s>]+)>?\)
    |(?P<url>https?://[^\s<]+[^<.,:;"')\]\s])""",
    re.X | re.S,
)
_WRAPS = {"bold": "strong", "under": "u", "ital": "em", "ital2": "em", "strike": "s"}


class Markdown:
    """Discord's markdown subset to HTML, with a message's mention names and clock."""

    def __init__(self, message: Message, emoji_png: EmojiPng) -> None:
        self.message = message
        self.emoji_png = emoji_png

    def inline(self, text: str, *, links: bool = True) -> str:
        out: list[str] = []
        last = 0
        for m in _INLINE.finditer(text):
            out.append(self.text(text[last:m.start()]))
            out.append(self._token(m, links))
            last = m.end()
        out.append(self.text(text[last:]))
        return "".join(out)

    @staticmethod
    def text(text: str) -> str:
        """Plain text, its unicode emoji as big as Discord draws them (1.375 em)."""
        return _UNICODE_EMOJI.sub(lambda m: f'<span class="ue">{m.group(0)}</span>',
                                  html.escape(text, quote=False))

    def _token(self, m: re.Match[str], links: bool) -> str:
        g = m.groupdict()
        if g["esc"] is not None:
            return html.escape(g["esc"], quote=False)
        if g["code"] is not None:
            return f'<code class="inline">{html.escape(g["code"].strip(" ") or g["code"])}</code>'
        if g["ename"] is not None:
            return self.emoji(g["ename"])
        if g["ts"] is not None:
            return f'<span class="ts">{html.escape(self.timestamp(int(g["ts"]), g["tsf"]))}</span>'
        if g["user"] is not None:
            name = self.message.names.get(int(g["user"]), "unknown-user")
            return f'<span class="mention">@{html.escape(name)}</span>'
        if g["role"] is not None:
            name = self.message.names.get(int(g["role"]), "unknown-role")
            return f'<span class="mention">@{html.escape(name)}</span>'
        if g["chan"] is not None:
            name = self.message.names.get(int(g["chan"]), "unknown")
            return f'<span class="mention">#{html.escape(name)}</span>'
        if g["boldital"] is not None:
            return f"<strong><em>{self.inline(g['boldital'], links=links)}</em></strong>"
        if g["spoiler"] is not None:
            return f'<span class="spoiler">{self.inline(g["spoiler"], links=links)}</span>'
        if g["ltext"] is not None:
            if not links:
                return html.escape(m.group(0), quote=False)
            return f'<span class="link">{self.inline(g["ltext"], links=False)}</span>'
        if g["url"] is not None:
            return f'<span class="link">{html.escape(g["url"])}</span>'
        for group, tag in _WRAPS.items():
            if g[group] is not None:
                return f"<{tag}>{self.inline(g[group], links=links)}</{tag}>"
        raise AssertionError(m.group(0))

    def emoji(self, name: str, px: int | None = None) -> str:
        """A custom emoji: 1.375 em like Discord's (22 px in a message, 19 in an embed),
        or ``px``."""
        png = self.emoji_png(name)
        if png is None:
            return html.escape(f":{name}:")
        size = f' style="width:{px}px;height:{px}px"' if px else ""
        return (f'<img class="emoji" alt=":{html.escape(name)}:" src="{data_uri(png)}"{size}>')

    def timestamp(self, seconds: int, style: str | None) -> str:
        """As Discord shows ``<t:seconds:style>`` (in UTC, en-US)."""
        at = datetime.fromtimestamp(seconds, UTC)
        clock = f"{at:%I:%M}".lstrip("0") + f" {at:%p}"
        date = f"{at:%B} {at.day}, {at.year}"
        return {
            "t": clock,
            "T": f"{at:%I:%M:%S}".lstrip("0") + f" {at:%p}",
            "d": f"{at:%m/%d/%Y}",
            "D": date,
            "F": f"{at:%A}, {date} {clock}",
            "R": relative(at - self.message.at),
        }.get(style or "f", f"{date} {clock}")

    def blocks(self, text: str, *, headings: bool = True) -> str:
        """Text with block syntax: code blocks, quotes, headings, subtext and lists."""
        out: list[str] = []
        for i, part in enumerate(re.split(r"```(?:[\w+-]*\n)?(.*?)```", text, flags=re.S)):
            if i % 2:
                out.append(f'<pre class="codeblock">{html.escape(part.rstrip(chr(10)))}</pre>')
                continue
            if i:  # the line break that ends a code block is not an empty line
                part = part.removeprefix("\n")
            out.append(self._lines(part, headings))
        return "".join(out)

    def _lines(self, text: str, headings: bool) -> str:
        out: list[str] = []
        lines = text.split("\n")
        para: list[str] = []

        def flush(before_block: bool) -> None:
            if para:
                out.append("\n".join(self.inline(line) for line in para)
                           + ("\n" if before_block else ""))
                para.clear()

        i = 0
        while i < len(lines):
            line = lines[i]
            if line.startswith(">>> "):
                flush(True)
                rest = "\n".join([line[4:], *lines[i + 1:]])
                out.append(f'<div class="quote"><div>{self._lines(rest, headings)}</div></div>')
                return "".join(out)
            if line.startswith("> ") or line == ">":
                flush(True)
                quoted = []
                while i < len(lines) and (lines[i].startswith("> ") or lines[i] == ">"):
                    quoted.append(lines[i][2:])
                    i += 1
                out.append(f'<div class="quote"><div>{self._lines(chr(10).join(quoted), headings)}'
                           "</div></div>")
                continue
            heading = re.match(r"(#{1,3}) (.+)", line) if headings else None
            bullet = re.match(r"(\s*)[-*] (.+)", line)
            if line.startswith("-# "):
                flush(True)
                out.append(f'<div class="subtext">{self.inline(line[3:])}</div>')
            elif heading:
                flush(True)
                level = len(heading.group(1))
                out.append(f'<div class="h{level}">{self.inline(heading.group(2))}</div>')
            elif bullet:
                flush(True)
                depth = 1 + len(bullet.group(1)) // 2
                out.append(f'<div class="li" style="margin-left:{16 * depth}px">'
                           f"{self.inline(bullet.group(2))}</div>")
            else:
                para.append(line)
            i += 1
        flush(False)
        return "".join(out)


def relative(delta: timedelta) -> str:
    """Discord's relative time (moment.js' thresholds): ``in 12 hours``, ``3 days ago``."""
    s = abs(delta.total_seconds())
    steps = [(45, None, "a few seconds"), (90, None, "a minute"), (45 * 60, 60, "minutes"),
             (90 * 60, None, "an hour"), (22 * 3600, 3600, "hours"), (36 * 3600, None, "a day"),
             (26 * 86400, 86400, "days"), (45 * 86400, None, "a month"),
             (320 * 86400, 30 * 86400, "months"), (548 * 86400, None, "a year")]
    words = f"{round(s / (365 * 86400))} years"
    for limit, unit, name in steps:
        if s < limit:
            words = name if unit is None else f"{round(s / unit)} {name}"
            break
    return f"in {words}" if delta.total_seconds() >= 0 else f"{words} ago"


# ----- the page ---------------------------------------------------------------------------

CSS = """
* { box-sizing: border-box; }
html, body { margin: 0; background: #313338; }
body { font-family: "Noto Sans", "DejaVu Sans", sans-serif; color: #dbdee1;
  font-size: 16px; line-height: 1.375; -webkit-font-smoothing: antialiased;
  padding: 16px 0 24px; }
.message { position: relative; padding: 2px 48px 2px 72px; min-height: 44px; }
.phone .message { padding: 2px 12px 2px 64px; }
.used { position: relative; display: flex; align-items: center; gap: 4px; height: 18px;
  margin-bottom: 4px; font-size: 14px; color: #b5bac1; white-space: nowrap; overflow: hidden; }
.used::before { content: ""; position: absolute; left: -36px; top: 8px; width: 29px;
  height: 10px; border-left: 2px solid #4e5058; border-top: 2px solid #4e5058;
  border-top-left-radius: 6px; }
.phone .used::before { left: -30px; width: 23px; }
.used .mini { width: 16px; height: 16px; border-radius: 50%; background: #5865f2;
  color: #fff; font-size: 10px; line-height: 16px; text-align: center; }
.used .who { color: #c9cdfb; font-weight: 500; }
.used .cmd { color: #00a8fc; }
.avatar { position: absolute; left: 16px; width: 40px; height: 40px; border-radius: 50%;
  background: #1e1f22; overflow: hidden; }
.phone .avatar { left: 12px; }
.avatar img { width: 40px; height: 40px; }
.header { line-height: 22px; white-space: nowrap; }
.name { color: #f2f3f5; font-weight: 500; }
.tag { display: inline-block; background: #5865f2; color: #fff; font-size: 10px;
  font-weight: 600; height: 15px; line-height: 15px; padding: 0 4px; border-radius: 3px;
  margin-left: 4px; vertical-align: 2px; }
.time { color: #949ba4; font-size: 12px; margin-left: 4px; }
.content { white-space: pre-wrap; overflow-wrap: anywhere; }
.content.jumbo .emoji, .content.jumbo .ue { width: 48px; height: 48px; font-size: 42px;
  line-height: 48px; }
.emoji { width: 1.375em; height: 1.375em; vertical-align: bottom; object-fit: contain;
  margin: 0 1px; }
.ue { display: inline-block; font-size: 1.25em; line-height: 1.1; vertical-align: bottom; }
code .ue, .button .ue { font-size: 1em; line-height: inherit; }
code.inline { font-family: "DejaVu Sans Mono", monospace; font-size: 85%;
  background: #2b2d31; border: 1px solid #1e1f22; border-radius: 4px; padding: 0 .2em;
  white-space: pre-wrap; }
.embed code.inline { background: #1e1f22; border-color: #1e1f22; }
pre.codeblock { font-family: "DejaVu Sans Mono", monospace; font-size: 12.6px;
  line-height: 18px; background: #2b2d31; border: 1px solid #1e1f22; border-radius: 4px;
  padding: 7px; margin: 6px 0 0; white-space: pre-wrap; color: #dbdee1; }
.embed pre.codeblock { background: #1e1f22; }
.quote { display: flex; margin: 0; }
.quote::before { content: ""; flex: none; width: 4px; border-radius: 4px; background: #4e5058; }
.quote > div { padding: 0 8px 0 12px; min-width: 0; }
.h1 { font-size: 1.5em; font-weight: 700; line-height: 1.375; margin: 8px 0 0; color: #f2f3f5; }
.h2 { font-size: 1.25em; font-weight: 700; line-height: 1.375; margin: 8px 0 0; color: #f2f3f5; }
.h3 { font-size: 1em; font-weight: 700; line-height: 1.375; margin: 8px 0 0; color: #f2f3f5; }
.subtext { font-size: 12px; line-height: 1.33; color: #949ba4; }
.li { display: list-item; list-style: disc; }
.mention { background: rgba(88, 101, 242, .3); color: #c9cdfb; font-weight: 500;
  border-radius: 3px; padding: 0 2px; }
.ts { background: rgba(255, 255, 255, .06); border-radius: 3px; padding: 0 2px; }
.link { color: #00a8fc; }
.spoiler { background: #1e1f22; color: transparent; border-radius: 3px; }
.spoiler img { visibility: hidden; }
.embed { position: relative; display: grid; width: fit-content; max-width: 520px;
  min-width: 0; margin-top: 2px; background: #2b2d31; border-left: 4px solid #1e1f22;
  border-radius: 4px; padding: 8px 16px 16px 12px; }
.phone .embed { width: 100%; max-width: none; }
.embed > * { min-width: 0; }
.e-author { margin-top: 8px; font-size: 14px; font-weight: 600; color: #f2f3f5;
  line-height: 22px; }
.e-title { margin-top: 8px; font-size: 16px; font-weight: 600; color: #f2f3f5;
  line-height: 22px; overflow-wrap: anywhere; }
.e-desc { margin-top: 8px; font-size: 14px; line-height: 18px; white-space: pre-line;
  overflow-wrap: anywhere; }
.e-fields { display: grid; grid-template-columns: repeat(12, minmax(0, 1fr)); gap: 8px;
  margin-top: 8px; }
.e-field { font-size: 14px; line-height: 18px; min-width: 0; }
.e-fname { font-weight: 600; color: #f2f3f5; margin-bottom: 2px; overflow-wrap: anywhere; }
.e-fvalue { white-space: pre-line; overflow-wrap: anywhere; }
.e-image { margin-top: 16px; border-radius: 4px; display: block; }
.e-footer { margin-top: 8px; font-size: 12px; font-weight: 500; line-height: 16px;
  color: #dbdee1; }
.container { width: 100%; max-width: 520px; margin-top: 2px; background: #2b2d31;
  border: 1px solid #3f4147; border-left: 4px solid #1e1f22; border-radius: 8px;
  padding: 16px; display: flex; flex-direction: column; gap: 8px; }
.phone .container { max-width: none; }
.container .t-display { font-size: 14px; line-height: 18px; white-space: pre-line;
  overflow-wrap: anywhere; }
.container .gallery img { width: 100%; height: auto; display: block; border-radius: 8px; }
.components { display: flex; flex-direction: column; gap: 8px; padding: 4px 0; margin-top: 4px; }
.row { display: flex; flex-wrap: wrap; gap: 8px; }
.button { display: inline-flex; align-items: center; justify-content: center; gap: 4px;
  height: 32px; min-width: 60px; max-width: 100%; padding: 2px 16px; border-radius: 8px;
  color: #fff; font-size: 14px; font-weight: 500; line-height: 16px; white-space: nowrap; }
.button span { overflow: hidden; text-overflow: ellipsis; }
.button .emoji { margin: 0; flex: none; }
.button .uemoji { font-size: 18px; line-height: 20px; }
.button.disabled { opacity: .5; }
.file { display: flex; align-items: center; gap: 8px; width: 100%; max-width: 432px;
  margin-top: 8px; padding: 16px; background: #2b2d31; border: 1px solid #1e1f22;
  border-radius: 8px; }
.file .icon { width: 30px; height: 40px; border-radius: 3px; background: #dbdee1;
  flex: none; clip-path: polygon(0 0, 70% 0, 100% 25%, 100% 100%, 0 100%); }
.file .fname { color: #00a8fc; font-size: 16px; line-height: 20px; overflow-wrap: anywhere; }
.file .fsize { color: #949ba4; font-size: 12px; }
.picture { margin-top: 8px; border-radius: 8px; display: block; }
.ephemeral { margin-top: 4px; font-size: 12px; line-height: 16px; color: #949ba4;
  display: flex; align-items: center; gap: 4px; }
.ephemeral .eye { font-size: 14px; }
.ephemeral .link { color: #00a8fc; }
"""



def _fit(size: tuple[int, int], box: tuple[int, int]) -> tuple[int, int]:
    """``size`` scaled down (never up) to fit ``box``, keeping its shape."""
    w, h = size
    scale = min(1.0, box[0] / w, box[1] / h)
    return max(1, round(w * scale)), max(1, round(h * scale))


def _size(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as image:
        return image.size


def _is_image(name: str) -> bool:
    return name.lower().endswith((".png", ".jpg", ".jpeg", ".gif", ".webp"))


class Renderer:
    """Renders a :class:`Message` at one width."""

    def __init__(self, message: Message, width: Width, emoji_png: EmojiPng = card_face) -> None:
        self.message = message
        self.width = width
        self.md = Markdown(message, emoji_png)
        self.emoji_png = emoji_png

    def page(self) -> str:
        m = self.message
        return (
            f'<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width={WIDTHS[self.width]}">'
            f"<style>{CSS}</style></head>"
            f'<body class="{self.width}" style="width:{WIDTHS[self.width]}px">'
            f'<div class="message">{self.used()}{self.avatar()}{self.header()}'
            f"{self.content()}{''.join(self.embed(e) for e in m.embeds)}"
            f"{self.files()}{self.components()}{self.ephemeral()}</div></body></html>\n"
        )

    def used(self) -> str:
        m = self.message
        if m.command is None:
            return ""
        who = html.escape(m.user or "someone")
        return (f'<div class="used"><span class="mini">{who[:1].upper()}</span>'
                f'<span class="who">{who}</span> used <span class="cmd">'
                f"/{html.escape(m.command)}</span></div>")

    def avatar(self) -> str:
        top = 24 if self.message.command is not None else 2
        face = self.emoji_png("dd_back")
        inner = f'<img src="{data_uri(face)}" alt="">' if face else ""
        return f'<div class="avatar" style="top:{top}px">{inner}</div>'

    def header(self) -> str:
        at = self.message.at
        when = "Today at " + f"{at:%I:%M}".lstrip("0") + f" {at:%p}"
        return (f'<div class="header"><span class="name">{html.escape(self.message.author)}'
                f'</span><span class="tag">APP</span><span class="time">{when}</span></div>')

    def content(self) -> str:
        text = self.message.content
        if not text:
            return ""
        bare = re.sub(r"<a?:\w+:\d+>", "", text)
        bare = _UNICODE_EMOJI.sub("", bare)
        jumbo = not bare.strip() and len(re.findall(r"<a?:\w+:\d+>", text)) <= 30
        return (f'<div class="content{" jumbo" if jumbo else ""}">'
                f"{self.md.blocks(text)}</div>")

    def embed(self, e: dict[str, Any]) -> str:
        md = self.md
        colour = e.get("color")
        bar = f"#{colour:06x}" if isinstance(colour, int) else "#1e1f22"
        parts: list[str] = []
        if (author := e.get("author", {}).get("name")):
            parts.append(f'<div class="e-author">{html.escape(author)}</div>')
        if (title := e.get("title")):
            parts.append(f'<div class="e-title">{md.inline(title, links=False)}</div>')
        if (description := e.get("description")):
            parts.append(f'<div class="e-desc">{md.blocks(description)}</div>')
        if (fields := e.get("fields")):
            parts.append(self.fields(fields))
        if (image := e.get("image", {}).get("url")):
            parts.append(self.image(image))
        footer = e.get("footer", {}).get("text")
        stamp = e.get("timestamp")
        if footer or stamp:
            text = html.escape(footer or "")
            if stamp:
                when = datetime.fromisoformat(stamp)
                clock = f"{when:%I:%M}".lstrip("0") + f" {when:%p}"
                text += (" • " if text else "") + f"Today at {clock}"
            parts.append(f'<div class="e-footer">{text}</div>')
        return f'<div class="embed" style="border-left-color:{bar}">{"".join(parts)}</div>'

    def fields(self, fields: list[dict[str, Any]]) -> str:
        """Inline fields side by side, up to three a row (desktop); stacked on a phone."""
        spans: list[tuple[int, int]] = []  # (first column, width) in twelfths
        i = 0
        while i < len(fields):
            if not fields[i].get("inline") or self.width == "phone":
                spans.append((1, 12))
                i += 1
                continue
            run = 0
            while i + run < len(fields) and fields[i + run].get("inline") and run < 3:
                run += 1
            each = 12 // run
            spans.extend((1 + k * each, each) for k in range(run))
            i += run
        out = []
        for f, (start, width) in zip(fields, spans, strict=True):
            out.append(
                f'<div class="e-field" style="grid-column:{start}/{start + width}">'
                f'<div class="e-fname">{self.md.inline(f.get("name", ""), links=False)}</div>'
                f'<div class="e-fvalue">{self.md.blocks(f.get("value", ""), headings=False)}'
                "</div></div>"
            )
        return f'<div class="e-fields">{"".join(out)}</div>'

    def image(self, url: str) -> str:
        data = self.message.attachments.get(url.removeprefix("attachment://"))
        if data is None:
            return ""
        size = _size(data)
        if self.width == "phone":
            style = "width:100%;height:auto"
        else:
            w, h = _fit(size, IMAGE_BOX)
            style = f"width:{w}px;height:{h}px"
        return f'<img class="e-image" src="{data_uri(data)}" style="{style}" alt="">'

    def files(self) -> str:
        """Attachments no embed shows: pictures below the text, other files as a file box."""
        used = {e.get("image", {}).get("url", "").removeprefix("attachment://")
                for e in self.message.embeds} | _gallery_files(self.message.components)
        out = []
        for name, data in self.message.attachments.items():
            if name in used:
                continue
            if _is_image(name):
                w, h = _fit(_size(data), (550, 350) if self.width == "desktop" else (320, 320))
                out.append(f'<img class="picture" src="{data_uri(data)}" '
                           f'style="width:{w}px;height:{h}px" alt="">')
            else:
                size = len(data)
                shown = f"{size} bytes" if size < 1024 else f"{size / 1024:.2f} KB"
                out.append(f'<div class="file"><div class="icon"></div><div>'
                           f'<div class="fname">{html.escape(name)}</div>'
                           f'<div class="fsize">{shown}</div></div></div>')
        return "".join(out)

    def components(self) -> str:
        rows = [self.component(c) for c in self.message.components]
        rows = [r for r in rows if r]
        return f'<div class="components">{"".join(rows)}</div>' if rows else ""

    def component(self, c: dict[str, Any]) -> str:
        """A top-level component: a row of buttons, or (components v2) a container, a text
        display, a media gallery or a separator."""
        kind = c.get("type")
        if kind == 1:
            buttons = [self.button(b) for b in c.get("components", []) if b.get("type") == 2]
            return f'<div class="row">{"".join(buttons)}</div>' if buttons else ""
        if kind == 17:
            colour = c.get("accent_color")
            bar = f"#{colour:06x}" if isinstance(colour, int) else "#3f4147"
            inner = "".join(self.component(x) for x in c.get("components", []))
            return f'<div class="container" style="border-left-color:{bar}">{inner}</div>'
        if kind == 10:
            return f'<div class="t-display">{self.md.blocks(c.get("content", ""))}</div>'
        if kind == 12:
            images = []
            for item in c.get("items", []):
                url = item.get("media", {}).get("url", "")
                data = self.message.attachments.get(url.removeprefix("attachment://"))
                if data is not None:
                    images.append(f'<img src="{data_uri(data)}" alt="">')
            return f'<div class="gallery">{"".join(images)}</div>'
        if kind == 14:
            return '<hr style="border:0;border-top:1px solid #3f4147;margin:4px 0">'
        return ""

    def button(self, b: dict[str, Any]) -> str:
        style = int(b.get("style", 2))
        classes = "button disabled" if b.get("disabled") else "button"
        inner = []
        emoji = b.get("emoji") or {}
        if emoji.get("id"):
            inner.append(self.md.emoji(str(emoji.get("name")), 20))
        elif emoji.get("name"):
            inner.append(f'<span class="uemoji">{html.escape(str(emoji["name"]))}</span>')
        if b.get("label"):
            inner.append(f"<span>{html.escape(str(b['label']))}</span>")
        if style == 5:
            inner.append('<span class="uemoji" style="font-size:14px">↗</span>')
        return (f'<div class="{classes}" style="background:{BUTTON_COLOURS.get(style, "#4e5058")}">'
                f'{"".join(inner)}</div>')

    def ephemeral(self) -> str:
        if not self.message.ephemeral:
            return ""
        return ('<div class="ephemeral"><span class="eye">👁</span>Only you can see this · '
                '<span class="link">Dismiss message</span></div>')


def _gallery_files(components: list[dict[str, Any]]) -> set[str]:
    """The attachments that components-v2 media galleries show (at any depth)."""
    found: set[str] = set()
    for c in components:
        for item in c.get("items", []) if c.get("type") == 12 else []:
            found.add(item.get("media", {}).get("url", "").removeprefix("attachment://"))
        found |= _gallery_files(c.get("components", []))
    return found


def page(message: Message, width: Width, emoji_png: EmojiPng = card_face) -> str:
    """The HTML page showing ``message`` as Discord's client does at ``width``."""
    return Renderer(message, width, emoji_png).page()
