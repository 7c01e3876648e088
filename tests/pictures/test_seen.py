"""The faces as a player sees them on a Discord button: 22 pixels, scaled down from the
128×128 emoji, on the dark theme. Each test is one thing a player could not make out before
(♠ from ♣, a 10, a court, a joker, the back) or must keep making out (without colour)."""

from __future__ import annotations

import io
import itertools

import pytest
from PIL import Image

from bot.pictures import faces
from rules.cards import CANONICAL, JOKERS, RANKS, SUITS
from tests.pictures.seeing import (
    VISIONS,
    Pixel,
    contrast,
    distance,
    ink_box,
    ink_runs,
    ink_share,
    pixels,
)

DARK_THEME = (0x31, 0x33, 0x38)
CARDS = [code for code in CANONICAL if code not in JOKERS]


def shown(code: str, *colours: str) -> Image.Image:
    """``code``'s emoji scaled to 22 pixels on the dark theme, as Discord shows it."""
    with Image.open(io.BytesIO(faces.face_png(code, *colours))) as uploaded:
        face = uploaded.convert("RGBA").resize((22, 22), Image.Resampling.LANCZOS)
    image = Image.new("RGB", face.size, DARK_THEME)
    image.paste(face, (0, 0), face)
    return image


def paper(code: str) -> Pixel:
    return faces.RED_PAPER if faces.is_red(code) else faces.BLACK_PAPER


def test_spades_and_clubs_are_told_apart_at_22_px() -> None:
    for r in RANKS:
        assert distance(shown(r + "S"), shown(r + "C")) >= 15, r


def test_four_colours_by_default_spades_black_hearts_red_diamonds_blue_clubs_green() -> None:
    def pip_colour(code: str) -> Pixel:
        ink = [p for p in pixels(shown(code).crop((12, 12, 20, 20)))
               if max(abs(a - b) for a, b in zip(p, paper(code), strict=True)) >= 120]
        return tuple(sum(channel) // len(ink) for channel in zip(*ink, strict=True))  # type: ignore[return-value]

    for r in ("A", "7", "10", "K"):
        spade, heart, diamond, club = (pip_colour(r + s) for s in "SHDC")
        assert max(spade) < 60
        assert heart[0] > 2 * max(heart[1:])
        assert diamond[2] > 2 * diamond[0] and diamond[2] > diamond[1] + 60
        assert club[1] > 2 * max(club[0], club[2])


def test_two_colours_print_diamonds_red_and_clubs_black() -> None:
    assert faces.ink("7D", "two") == faces.RED_INK == faces.ink("7H", "two")
    assert faces.ink("7C", "two") == faces.BLACK_INK == faces.ink("7S", "two")
    assert faces.face_png("7H", "two") == faces.face_png("7H")
    assert faces.face_png("7C", "two") != faces.face_png("7C")


@pytest.mark.parametrize("vision", sorted(VISIONS))
def test_every_pair_of_suits_is_told_apart_in_grey_and_by_a_deuteranope(vision: str) -> None:
    see = VISIONS[vision]
    for r in ("A", "2", "7", "10", "J", "Q", "K"):
        for a, b in itertools.combinations(SUITS, 2):
            assert distance(see(shown(r + a)), see(shown(r + b))) >= 12, (vision, r, a, b)


def test_the_pip_is_large_at_22_px() -> None:
    for code in CARDS:
        box = ink_box(shown(code), paper(code), (11, 11, 21, 21))
        assert box is not None and box[2] - box[0] >= 9 and box[3] - box[1] >= 10, (code, box)


def test_ten_reads_as_two_digits_of_full_width() -> None:
    for s in SUITS:
        image, blank = shown("10" + s), paper("10" + s)
        assert ink_runs(image, blank, (1, 2, 17, 10)) == 2
        left, _top, right, _bottom = ink_box(image, blank, (1, 2, 17, 10)) or (0, 0, 0, 0)
        assert right - left >= 13, s


def test_courts_are_marked_and_differ_from_each_other() -> None:
    """J, Q and K sit on a solid tile: its left edge and top edge are ink all along, which
    no number's outline is."""
    for s in SUITS:
        for r in RANKS:
            image, blank = shown(r + s), paper(r + s)
            edges = min(ink_share(image, blank, (2, 3, 3, 11)),
                        ink_share(image, blank, (3, 2, 11, 3)))
            if r in "JQK":
                assert edges == 1.0, (r, s, edges)
            else:
                assert edges <= 0.75, (r, s, edges)
        for a, b in itertools.combinations("JQK", 2):
            assert distance(shown(a + s), shown(b + s)) >= 10


def test_a_joker_is_one_big_shape_unlike_any_card() -> None:
    for joker in JOKERS:
        image = shown(joker)
        blank = faces.RED_PAPER if joker == "RJ" else faces.BLACK_PAPER
        rows = [ink_box(image, blank, (3, y, 19, y + 1)) is not None for y in range(3, 20)]
        # No line of letters under the star: one run of inked rows, most of the card tall.
        assert sum(1 for before, now in zip([False, *rows], rows, strict=False)
                   if now and not before) == 1
        assert sum(rows) >= 14
        for other in faces.FACE_NAMES:
            if other != joker:
                assert distance(image, shown(other)) >= 40, (joker, other)


def test_the_back_shows_a_gold_emblem_and_no_face_looks_like_it() -> None:
    back = shown(faces.BACK)
    gold = [p for p in pixels(back)
            if max(abs(a - b) for a, b in zip(p, faces.BACK_GOLD, strict=True)) <= 60]
    assert len(gold) >= 20
    assert max(abs(a - b) for a, b in zip(back.getpixel((11, 11)), faces.BACK_GOLD,
                                          strict=True)) <= 40
    for code in faces.FACE_NAMES:
        if code != faces.BACK:
            assert distance(back, shown(code)) >= 100, code


@pytest.mark.parametrize("colours", faces.COLOURS)
def test_every_ink_stands_out_from_its_paper(colours: faces.Colours) -> None:
    for code in [*CARDS, *JOKERS]:
        assert contrast(faces.ink(code, colours), paper(code)) >= 4.0, code
    assert contrast(faces.BACK_GOLD, faces.BACK_PAPER) >= 4.0


@pytest.mark.parametrize("colours", faces.COLOURS)
def test_the_same_code_gives_the_same_bytes_in_either_colours(colours: faces.Colours) -> None:
    first = [faces.face_png(code, colours) for code in faces.FACE_NAMES]
    faces.face_png.cache_clear()
    faces.card_image.cache_clear()
    assert [faces.face_png(code, colours) for code in faces.FACE_NAMES] == first
    assert len(set(first)) == 55


def test_unknown_colours_are_refused() -> None:
    with pytest.raises(ValueError, match="four or two"):
        faces.card_image("AS", 128, 128, "rainbow")  # type: ignore[arg-type]
