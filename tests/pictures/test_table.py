"""Table pictures: every state of many random games draws within Discord's limits, the same
view gives the same bytes, the last action's cards are framed, and the cache and the async
wrapper behave."""

from __future__ import annotations

import asyncio
import io
import random
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image, ImageChops

from bot.games import BOARDS
from bot.games import tomb as tomb_board
from bot.i18n import PSEUDO_CODE, catalogs
from bot.pictures import canvas, table
from bot.pictures.words import picture_language
from rules import GAMES

#: Discord's attachment limit is far higher; the issue's budget for a table is this.
MAX_BYTES = 150 * 1024
#: Random games drawn per game: fewer of the long ones.
GAMES_PER_KEY = {"clear": 5}


def random_games(key: str, count: int, seed: int = 1) -> Iterator[tuple[Any, str | None]]:
    """Every state of ``count`` random games of ``key`` (all variants), with the action that
    led to it (None for the deal)."""
    game = GAMES[key]
    rng = random.Random(seed)
    for n in range(count):
        state = game.new(rng.getrandbits(64), game.variants[n % len(game.variants)])
        yield state, None
        while legal := game.actions(state):
            action = rng.choice(legal)
            state = game.apply(state, action)
            yield state, action


def gold_pixels(png: bytes) -> int:
    with Image.open(io.BytesIO(png)) as image:
        colours = image.convert("RGB").getcolors(1 << 16) or []
    return sum(n for n, colour in colours if colour == canvas.GOLD)


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_state_of_random_games_draws_within_limits(key: str) -> None:
    game = GAMES[key]
    sizes = set()
    drawn = 0
    for state, action in random_games(key, GAMES_PER_KEY.get(key, 12)):
        png = table.render_table(game.view(state), action)
        assert png.startswith(b"\x89PNG")
        assert len(png) < MAX_BYTES
        with Image.open(io.BytesIO(png)) as image:
            image.verify()
            sizes.add(image.size)
        drawn += 1
    assert drawn > 5 * GAMES_PER_KEY.get(key, 12)
    (size,) = sizes  # one size per game, whatever the state
    assert size[0] == canvas.WIDTH and 200 <= size[1] <= 400


@pytest.mark.parametrize("key", sorted(GAMES))
def test_the_same_view_gives_the_same_bytes(key: str) -> None:
    game = GAMES[key]
    states = list(random_games(key, 1, seed=7))
    state, action = states[len(states) // 2]
    view = game.view(state)
    first = table.render_table(view, action)
    canvas.card_image.cache_clear()
    canvas.palette.cache_clear()  # as in another process: the palette is made again
    assert table.render_table(game.view(state), action) == first
    assert table.table_key(view, action) == table.table_key(game.view(state), action)


@pytest.mark.parametrize("key", sorted(GAMES))
def test_the_shared_palette_keeps_every_colour_a_table_shows(key: str) -> None:
    """Every table is stored in one palette of 256 colours: each pixel of the full-colour
    table lands on a colour close to its own (a colour the palette lacks, an HP bar's red
    say, would be off by far more, over thousands of pixels)."""
    game = GAMES[key]
    states = list(random_games(key, 3, seed=11))
    for state, action in states[:: max(1, len(states) // 40)]:
        full = table.draw_scene(table.scene(game.view(state), action))
        with Image.open(io.BytesIO(table.render_table(game.view(state), action))) as png:
            assert png.mode == "P"
            stored = png.convert("RGB")
        diff = ImageChops.difference(full, stored)
        off = [max(pixel) for pixel in diff.get_flattened_data()]
        assert max(off) <= 32, f"a colour of {key}'s table is missing from the palette"
        assert sum(off) / len(off) < 0.5


def test_the_key_covers_what_is_drawn_and_only_that() -> None:
    game = GAMES["donsol"]
    state = game.new(5)
    view = game.view(state)
    # The seed and the prompt are not drawn: same key, same picture.
    elsewhere = {**view, "seed": 6, "prompt": "Something else.", "score_text": "x"}
    assert table.table_key(elsewhere) == table.table_key(view)
    # What is drawn changes the key.
    assert table.table_key({**view, "hp": 20}) != table.table_key(view)
    assert table.table_key(view, f"take {view['room'][0]}") != table.table_key(view)


def test_the_last_action_s_cards_are_framed() -> None:
    donsol = GAMES["donsol"]
    state = donsol.new(12)
    card = next(c for c in state.room if c.endswith("D"))  # a shield: it stays in sight
    after = donsol.apply(state, f"take {card}")
    view = donsol.view(after)
    assert gold_pixels(table.render_table(view)) == 0
    assert gold_pixels(table.render_table(view, f"take {card}")) > 0

    clear = GAMES["clear"]
    state = clear.new(3)
    action = next(a for a in clear.actions(state) if a.startswith("put"))
    after = clear.apply(state, action)
    assert gold_pixels(table.render_table(clear.view(after))) == 0
    assert gold_pixels(table.render_table(clear.view(after), action)) > 0
    assert table.scene(clear.view(after), action)["last"] == [action.split()[1]]


def test_tomb_shows_the_cards_a_flip_turned() -> None:
    """After a flip, the picture shows the cards it turned: in the turn row while the turn
    goes on, as the "last turn" once it ended (the view's own turn row is empty then)."""
    tomb = GAMES["tomb"]
    ended = ongoing = 0
    for state, action in random_games("tomb", 40, seed=3):
        if action != "flip":
            continue
        view = tomb.view(state)
        drawn = table.scene(view, action)
        turned = tomb_board.turned_cards(view["events"])
        assert turned, view["events"]
        assert set(turned) <= set(drawn["last"])
        if view["turn"]:
            ongoing += 1
            assert drawn["turn"] == view["turn"] and not drawn["turn_is_last"]
        else:
            ended += 1
            assert drawn["turn"] == turned and drawn["turn_is_last"]
        assert gold_pixels(table.render_scene(drawn)) > 0
    assert ended > 20 and ongoing > 5


def test_turned_cards_reads_cards_back_from_events() -> None:
    events = [
        "You delve deeper: turn 2.",
        "You turn 10♠: a monster of strength 10 blocks the way.",
        "You turn 🃏: the Scroll of Light joins your hand.",
        "Your 3♠ falls short: the monster hits you for 7.",
        "You take 7 damage (7 in all, 3♥ showing).",
    ]
    assert tomb_board.turned_cards(events) == ["10S", "RJ", "3S"]
    assert canvas.action_cards("put 10H 2") == ["10H"]
    assert canvas.action_cards("take RJ") == ["RJ"]
    assert canvas.action_cards("escape") == [] and canvas.action_cards(None) == []


def test_an_unknown_game_has_no_picture() -> None:
    with pytest.raises(ValueError, match="no table picture"):
        table.render_table({"game": "chess", "outcome": None})


def test_the_cache_serves_repeats_and_drops_the_oldest() -> None:
    game = GAMES["clear"]
    views = [game.view(s) for s, _ in list(random_games("clear", 1, seed=2))[:4]]
    cache = table.TableCache(size=2)
    first = cache.render(views[0])
    assert cache.render(views[0]) is first
    assert (cache.hits, cache.misses) == (1, 1)
    cache.render(views[1])
    cache.render(views[2])  # views[0] is now the least recently used: dropped
    assert len(cache) == 2
    assert cache.render(views[0]) == first
    assert (cache.hits, cache.misses) == (1, 4)


async def test_table_png_draws_off_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    threads: list[int] = []
    real = table.render_scene

    def recording(drawn: dict[str, Any]) -> bytes:
        threads.append(threading.get_ident())
        return real(drawn)

    monkeypatch.setattr(table, "render_scene", recording)
    monkeypatch.setattr(table, "CACHE", table.TableCache())
    view = GAMES["tomb"].view(GAMES["tomb"].new(9))
    data = await table.table_png(view)
    assert data == real(table.scene(view))
    assert threads and threading.get_ident() not in threads
    assert await asyncio.gather(table.table_png(view), table.table_png(view)) == [data, data]
    assert len(threads) == 1  # served from the cache


async def test_table_attachment_is_a_discord_file_named_for_the_embed() -> None:
    view = GAMES["clear"].view(GAMES["clear"].new(4))
    attachment = await table.table_attachment(view, None)
    assert attachment.filename == table.FILENAME == "table.png"
    assert attachment.fp.read() == table.render_table(view)


def test_tables_drawn_on_several_threads_at_once_are_the_same() -> None:
    from concurrent.futures import ThreadPoolExecutor

    views = [(GAMES[key].view(state), action) for key in sorted(GAMES)
             for state, action in list(random_games(key, 1, seed=11))[:6]]
    serial = [table.render_table(view, action) for view, action in views]
    with ThreadPoolExecutor(max_workers=4) as pool:
        parallel = list(pool.map(lambda va: table.render_table(*va), views * 3))
    assert parallel == serial * 3


def test_what_each_clear_pile_needs_fits_under_it() -> None:
    import re

    from bot.pictures.faces import font

    seen = set()
    for state, action in random_games("clear", 3, seed=5):
        for pile in table.scene(GAMES["clear"].view(state), action)["piles"]:
            if pile["monster"]:
                seen.add(pile["needs"])
    assert "any card" in seen and any(n[0] in "♠♥♦♣" for n in seen)  # 1st and 3rd cards
    for need in seen:
        assert re.fullmatch(r"any card|\d+ or more|(10|[♠♥♦♣]) or joker", need), need
        assert font(canvas.MIN_LABEL).getlength(need) < 150  # a pile's column is 156 wide


#: Discord shows a table about this many pixels wide on a 390-pixel phone screen.
PHONE_PICTURE_WIDTH = 300
#: The smallest a label may look there, in screen pixels.
PHONE_MIN_PX = 9


#: The languages every label is checked in: English, the pseudo-locale (every letter accented
#: and the whole bracketed: longer than English, like German), French and German.
#: Every shipped language and the pseudo-locale: each one's labels must fit.
LABEL_LANGUAGES = [PSEUDO_CODE, *catalogs().codes]


def overlaps(a: canvas.Box, b: canvas.Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("lang", LABEL_LANGUAGES)
@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_label_is_readable_at_phone_width(key: str, lang: str) -> None:
    """Each label is drawn at least ``MIN_LABEL`` high, which is at least 9 pixels once the
    picture is shown 300 pixels wide, stays inside the picture and runs over no card nor
    another label, in each language (a longer translation shrinks or wraps to fit)."""
    language = picture_language(lang)
    assert language.code == lang  # the language is offered (its catalog is complete)
    game = GAMES[key]
    drawn = 0
    for state, action in random_games(key, 3):
        picture = BOARDS[key].draw(table.scene(game.view(state), action, language))
        drawn += len(picture.labels)
        for label in picture.labels:
            text, size, (left, top, right, bottom) = label.text, label.size, label.box
            assert size >= canvas.MIN_LABEL, (text, size)
            assert size * PHONE_PICTURE_WIDTH / canvas.WIDTH >= PHONE_MIN_PX, (text, size)
            assert left >= 0 and right <= canvas.WIDTH, (text, left, right)
            assert top >= 0 and bottom <= picture.image.height, (text, top, bottom)
            assert not label.cut, text  # a word cut in two to fit: a translation too long
            over = [card for card in picture.cards if overlaps(label.box, card)]
            assert not over, (text, label.box, over)
            others = [o.text for o in picture.labels if o is not label
                      and overlaps(label.box, o.box)]
            assert not others, (text, others)
    assert drawn
