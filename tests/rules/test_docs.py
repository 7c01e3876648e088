"""docs/: the deal page's vectors and code agree with the engines; links and names stay inside.

The docs are for people who clone the project alone, so every statement a test can check is
checked against the code, and no page points outside the repository.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from rules import GAMES
from rules.deal import Stream, commitment, daily_seed, shuffled

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
DEAL = (DOCS / "deal.md").read_text(encoding="utf-8")
PAGES = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]


def test_the_shuffle_vectors_are_what_the_engines_deal() -> None:
    vectors = re.findall(r"^seed (\d+), (\w+): +([A-Z0-9 ]+?)\s+\((\d+) words used\)$", DEAL, re.M)
    assert len(vectors) == 3
    for seed, game, cards, words in vectors:
        assert shuffled(int(seed), GAMES[game].deck) == (tuple(cards.split()), int(words))


def test_the_stream_vector_is_the_stream_of_seed_0() -> None:
    stream = Stream(0)
    expected = [int(w, 16) for w in re.findall(r"`(0x[0-9a-f]{16})`", DEAL)]
    assert expected == [stream.next_word() for _ in range(5)]


def test_the_daily_vectors_are_what_the_bot_computes() -> None:
    seed = daily_seed("example-secret", "donsol", "normal", "2026-12-01")
    assert f"give the seed\n`{seed}`, whose commitment is\n`{commitment(seed)}`" in DEAL
    assert f"The commitment of seed 0\nis `{commitment(0)}`" in DEAL


def test_the_python_on_the_deal_page_rebuilds_a_deal_without_the_bot(tmp_path: Path) -> None:
    code = DEAL[DEAL.index("```python") + len("```python") : DEAL.rindex("```")]
    script = tmp_path / "check_deal.py"
    script.write_text(code)
    done = subprocess.run(
        [sys.executable, "-I", str(script)], capture_output=True, text=True, check=True,
        cwd=tmp_path,
    )
    deal = " ".join(shuffled(0, GAMES["donsol"].deck)[0])
    assert done.stdout.splitlines() == [commitment(0), deal]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_leads_to_a_file_of_the_project(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
        if re.match(r"[a-z]+://", target):
            continue
        assert (page.parent / target).resolve().is_file(), f"{page.name}: {target}"


@pytest.mark.parametrize(
    "path",
    [
        *PAGES,
        *sorted((ROOT / "rules").rglob("*.py")),
        *sorted((ROOT / "bot" / "boards").glob("*.py")),
    ],
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_nothing_points_outside_the_repository(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert not re.search(r"shared/(specs|seeds|notes)|\.\./shared|/work/", text)


def test_every_game_has_a_page_in_the_index() -> None:
    index = (DOCS / "README.md").read_text(encoding="utf-8")
    for key in GAMES:
        assert f"(games/{key}.md)" in index
