"""The /stats card: a reference picture (compared by a hash of its pixels, like the tables'),
its size per game shown, and the histogram's grouping of scores."""

from __future__ import annotations

import io
import random
from pathlib import Path

from PIL import Image

from bot.pictures import stats_card
from tests.pictures.references import FOLDER, pixel_hash

REFERENCE = FOLDER / "stats_card.png"
#: The reference's pixel hash (its own file, beside the tables' hashes.json).
HASH = FOLDER / "stats_card.sha256"


def reference_data() -> list[dict]:
    """Two games: one rated with a freeze in the calendar, one unrated and sparse."""
    rng = random.Random(24)
    calendar = [rng.choice(["played", "played", "played", "missed"]) for _ in range(83)]
    calendar[40] = calendar[41] = "frozen"
    return [
        {"title": "Donsol", "unit": "cards", "points": [rng.randint(8, 54) for _ in range(60)],
         "calendar": [*calendar, "today"], "ratings": [["normal", 1234, 31, False]]},
        {"title": "Scoundrel", "unit": "points", "points": [-40, -12, -3, 0, 7, 18],
         "calendar": ["missed"] * 78 + ["played"] * 5 + ["today"],
         "ratings": [["normal", 980, 4, True]]},
    ]


def draw() -> bytes:
    return stats_card.render_card(reference_data())


def test_the_card_matches_its_reference() -> None:
    png = draw()
    with Image.open(io.BytesIO(png)) as image:
        assert image.size == (stats_card.WIDTH, 16 + 2 * (168 + 16))
        assert len(image.getcolors(maxcolors=100_000)) > 20  # drawn, not blank
    assert pixel_hash(png) == HASH.read_text().strip(), (
        f"the card changed: look at it ({REFERENCE}) and run "
        "`.venv/bin/python -m tests.pictures.test_stats_card` to keep it"
    )


def test_scores_are_grouped_into_at_most_fourteen_bars() -> None:
    assert stats_card.bins([3, 3, 5]) == ([2, 0, 1], 3, 1)
    counts, low, width = stats_card.bins(list(range(-40, 60)))
    assert len(counts) <= stats_card.MAX_BINS and low == -40 and width == 8
    assert sum(counts) == 100


def main() -> None:
    png = draw()
    Path(REFERENCE).write_bytes(png)
    HASH.write_text(pixel_hash(png) + "\n")
    print(f"wrote {REFERENCE} ({len(png)} bytes) and {HASH}")


if __name__ == "__main__":
    main()
