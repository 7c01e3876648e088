"""The /stats card: a reference picture (compared by a hash of its pixels, like the tables'),
its size per game shown, and the histogram's grouping of scores."""

from __future__ import annotations

import io
import random
from pathlib import Path

from PIL import Image

from bot.pictures import stats_card
from core.lookback import CardFigures
from core.ratings import PlayerRating
from tests.pictures.references import FOLDER, pixel_hash

REFERENCE = FOLDER / "stats_card.png"
#: The reference's pixel hash (its own file, beside the tables' hashes.json).
HASH = FOLDER / "stats_card.sha256"


def reference_data() -> list[dict]:
    """Three games: one rated in two variants with a freeze in the calendar, one rated on
    four days, one played once and not rated."""
    rng = random.Random(24)
    calendar = [rng.choice(["played", "played", "played", "missed"]) for _ in range(83)]
    calendar[40] = calendar[41] = "frozen"
    # Donsol's rating rises over its played days (two variants); Scoundrel's four days fall.
    played = [k for k, kind in enumerate(calendar) if kind == "played"]
    rating, normal = 1000, []
    for k in played:
        rating += rng.randint(-12, 20)
        normal.append([k, rating])
    hard = [[k, 1000 + 3 * n] for n, k in enumerate(played[-9:])]
    return [
        {"title": "Donsol", "unit": "cards", "points": [rng.randint(8, 54) for _ in range(60)],
         "calendar": [*calendar, "today"],
         "ratings": [["normal", rating, 31, False], ["hard", hard[-1][1], 9, True]],
         "trend": [["normal", normal], ["hard", hard]]},
        {"title": "Scoundrel", "unit": "points", "points": [-40, -12, -3, 0, 7, 18],
         "calendar": ["missed"] * 78 + ["played"] * 5 + ["today"],
         "ratings": [["normal", 980, 4, True]],
         "trend": [["normal", [[78, 1012], [79, 1001], [80, 990], [81, 980]]]]},
        {"title": "Clear the Dungeon", "unit": "rooms", "points": [3],
         "calendar": ["missed"] * 83 + ["played"], "ratings": [], "trend": []},
    ]


def draw() -> bytes:
    return stats_card.render_card(reference_data())


def test_the_card_matches_its_reference() -> None:
    png = draw()
    with Image.open(io.BytesIO(png)) as image:
        assert image.size == (stats_card.WIDTH, 16 + 3 * (stats_card.SECTION_H + 16))
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


def test_the_trend_is_placed_on_the_calendars_days() -> None:
    """A rated day's rating goes where its day is in the calendar; one before it is left
    out (the trend covers the calendar's weeks)."""
    calendar = [(f"2026-12-{d:02d}", "played") for d in range(1, 29)]
    rating = PlayerRating("normal", 1040, 3, (("2026-11-30", 1010), ("2026-12-01", 1020),
                                              ("2026-12-28", 1040)), 30)
    (data,) = stats_card.card_data([CardFigures("donsol", "cards", [5], calendar, [rating])])
    assert data["trend"] == [["normal", [[0, 1020], [27, 1040]]]]
    assert data["ratings"] == [["normal", 1040, 3, True]]


def main() -> None:
    png = draw()
    Path(REFERENCE).write_bytes(png)
    HASH.write_text(pixel_hash(png) + "\n")
    print(f"wrote {REFERENCE} ({len(png)} bytes) and {HASH}")


if __name__ == "__main__":
    main()
