"""The card faces as application emoji: written to a folder, or uploaded to Discord once.

At start the bot calls :func:`sync_card_emoji`: it lists the application's emoji, uploads
only the faces that are missing or whose drawing changed (known by a content hash kept in
the database), deletes the outdated copy of a changed face, and returns card code ->
:class:`discord.PartialEmoji` for buttons (``emoji=``) and board text (``str(emoji)`` is
``<:dd_AS:id>``). Any failure — no permission, the 2,000-emoji limit, Discord down — logs one
warning and returns an empty mapping: boards then show today's text cards.

``python -m bot emoji --dry-run [--out DIR]`` uses :func:`write_faces` to look at them;
:func:`contact_sheet` shows every face as a player sees it, at 22 pixels (a button) or 128,
on Discord's dark or light theme (``docs/pictures/contact_sheets.py`` writes those in docs).
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
import logging
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Protocol

import discord
from PIL import Image

from bot.pictures.faces import BACK, DEFAULT_COLOURS, EMOJI_SIZE, FACE_NAMES, Colours, face_png
from rules.cards import display

log = logging.getLogger(__name__)

#: Every emoji the bot owns starts with this, so that others on the application are left alone.
PREFIX = "dd_"
#: The store key holding ``{emoji name: [id, content hash]}`` as JSON.
STORE_KEY = "pictures.card_emoji"
#: Discord's cap on emoji per application.
APPLICATION_EMOJI_LIMIT = 2000

CardEmoji = dict[str, discord.PartialEmoji]


class KeyValueStore(Protocol):
    """Where the ids and hashes of uploaded faces are kept (the database's meta table)."""

    async def get(self, key: str) -> str | None: ...

    async def set(self, key: str, value: str) -> None: ...


def emoji_name(code: str) -> str:
    """The emoji name of a face: ``dd_10H``, ``dd_RJ``, ``dd_back`` (2–32 of ``[A-Za-z0-9_]``)."""
    return PREFIX + code


def content_hash(png: bytes) -> str:
    """A short, stable fingerprint of a face's bytes."""
    return hashlib.sha256(png).hexdigest()[:16]


def faces(colours: Colours = DEFAULT_COLOURS) -> dict[str, bytes]:
    """Every face's PNG bytes by code (``FACE_NAMES`` order). CPU work: run it off the loop."""
    return {code: face_png(code, colours) for code in FACE_NAMES}


def write_faces(folder: Path, colours: Colours = DEFAULT_COLOURS) -> list[Path]:
    """Write every face to ``folder`` as ``<emoji name>.png`` (the folder is created)."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for code, png in faces(colours).items():
        path = folder / f"{emoji_name(code)}.png"
        path.write_bytes(png)
        written.append(path)
    return written


#: Where ``python -m bot emoji --dry-run`` writes the faces without ``--out``.
DEFAULT_FOLDER = Path("data") / "emoji"


#: Discord's message background on its dark and light themes.
DARK_THEME = (0x31, 0x33, 0x38)
LIGHT_THEME = (0xFF, 0xFF, 0xFF)
#: How large Discord shows an emoji on a button (and inline in text), in pixels.
BUTTON_SIZE = 22


def as_shown(code: str, size: int = BUTTON_SIZE, background: tuple[int, int, int] = DARK_THEME,
             colours: Colours = DEFAULT_COLOURS) -> Image.Image:
    """The face of ``code`` as a player sees it: the uploaded 128×128 emoji scaled down to
    ``size`` (as Discord does) on ``background``, as RGB."""
    with Image.open(io.BytesIO(face_png(code, colours))) as uploaded:
        face = uploaded.convert("RGBA")
    if size != EMOJI_SIZE:
        face = face.resize((size, size), Image.Resampling.LANCZOS)
    shown = Image.new("RGB", face.size, background)
    shown.paste(face, (0, 0), face)
    return shown


def contact_sheet(size: int, background: tuple[int, int, int],
                  colours: Colours = DEFAULT_COLOURS, zoom: int = 1) -> Image.Image:
    """Every face (``FACE_NAMES`` order, 14 a row) as shown at ``size`` on ``background``,
    each pixel drawn ``zoom`` times larger so that 22-pixel faces can be looked at closely."""
    columns, gap = 14, max(2, size // 8)
    rows = -(-len(FACE_NAMES) // columns)
    sheet = Image.new("RGB", (gap + columns * (size + gap), gap + rows * (size + gap)),
                      background)
    for i, code in enumerate(FACE_NAMES):
        sheet.paste(as_shown(code, size, background, colours),
                    (gap + (i % columns) * (size + gap), gap + (i // columns) * (size + gap)))
    if zoom > 1:
        sheet = sheet.resize((sheet.width * zoom, sheet.height * zoom), Image.Resampling.NEAREST)
    return sheet


def emoji_command(folder: Path | None, *, dry_run: bool,
                  colours: Colours = DEFAULT_COLOURS) -> int:
    """``python -m bot emoji --dry-run [--out DIR]``: write the faces, say where; the status.

    Without ``--dry-run`` there is nothing to do by hand: the bot syncs its emoji at start.
    """
    if not dry_run:
        print("The bot uploads its card emoji itself when it starts; "
              "add --dry-run to write them to a folder and look at them.", file=sys.stderr)
        return 2
    folder = folder or DEFAULT_FOLDER
    written = write_faces(folder, colours)
    print(f"{len(written)} card faces written to {folder} (128×128 PNG, {colours} colours, "
          "as uploaded)")
    return 0


def card_text(code: str, emoji: Mapping[str, discord.PartialEmoji]) -> str:
    """How a board's text names a card: its emoji when synced, else ``A♠`` / ``🃏``."""
    found = emoji.get(code)
    return str(found) if found is not None else display(code)


async def sync_card_emoji(client: discord.Client, store: KeyValueStore,
                          colours: Colours = DEFAULT_COLOURS) -> CardEmoji:
    """Make the application's emoji match the faces; return card code (and ``back``) -> emoji.

    Uploads only what is missing or changed; a restart with nothing changed uploads nothing
    (switching ``colours`` changes the faces' hashes, so they are uploaded again).
    Never raises (but for cancellation): on any failure it logs one warning and returns ``{}``.
    """
    try:
        return await _sync(client, store, colours)
    except Exception as exc:
        log.warning(
            "Card emoji are off, boards show text cards: the emoji sync failed (%s: %s)",
            type(exc).__name__, exc,
        )
        return {}


class _LimitReached(Exception):
    pass


async def _sync(client: discord.Client, store: KeyValueStore, colours: Colours) -> CardEmoji:
    pictures = await asyncio.to_thread(faces, colours)
    wanted = {emoji_name(code): (code, png, content_hash(png)) for code, png in pictures.items()}
    known = _parse(await store.get(STORE_KEY))
    remote = await client.fetch_application_emojis()
    copies: dict[str, list[discord.Emoji]] = {}
    for emoji in remote:
        copies.setdefault(emoji.name, []).append(emoji)

    kept: dict[str, tuple[int, str]] = {}
    stale: list[discord.Emoji] = []  # outdated faces, and extra copies of one name
    missing: list[str] = []
    for name, (_code, _png, digest) in wanted.items():
        record = known.get(name)
        good = next((e for e in copies.get(name, []) if record == (e.id, digest)), None)
        stale.extend(e for e in copies.get(name, []) if e is not good)
        if good is None:
            missing.append(name)
        else:
            kept[name] = (good.id, digest)

    free = APPLICATION_EMOJI_LIMIT - (len(remote) - len(stale))
    if len(missing) > free:
        raise _LimitReached(
            f"{len(missing)} faces to upload but room for {max(free, 0)} of "
            f"{APPLICATION_EMOJI_LIMIT} application emoji"
        )
    try:
        for emoji in stale:
            await emoji.delete()
        for name in missing:
            _code, png, digest = wanted[name]
            created = await client.create_application_emoji(name=name, image=png)
            kept[name] = (created.id, digest)
    finally:
        # Keep what was uploaded even when a later upload fails: the next start resumes.
        await store.set(STORE_KEY, json.dumps(
            {name: list(entry) for name, entry in sorted(kept.items())}, separators=(",", ":")
        ))
    if missing:
        log.info("Card emoji: %d uploaded, %d already there", len(missing),
                 len(wanted) - len(missing))
    return {
        code: discord.PartialEmoji(name=name, id=kept[name][0])
        for name, (code, _png, _digest) in wanted.items()
    }


def _parse(raw: str | None) -> dict[str, tuple[int, str]]:
    """The stored record, or nothing if it is absent or unreadable (then all is re-checked)."""
    if not raw:
        return {}
    try:
        data = json.loads(raw)
        return {str(name): (int(entry[0]), str(entry[1])) for name, entry in data.items()}
    except (ValueError, TypeError, KeyError, IndexError, AttributeError):
        log.info("Card emoji: the stored record is unreadable; checking every face again")
        return {}


__all__ = [
    "APPLICATION_EMOJI_LIMIT", "BACK", "BUTTON_SIZE", "DARK_THEME", "DEFAULT_FOLDER",
    "LIGHT_THEME", "PREFIX", "STORE_KEY", "CardEmoji", "KeyValueStore", "as_shown",
    "card_text", "contact_sheet", "content_hash", "emoji_command", "emoji_name", "faces",
    "sync_card_emoji", "write_faces",
]
