"""The screens tool (tools/screens): a real board rendered to Discord-like HTML holds what the
bot sent, the markdown subset reads as Discord shows it, and (when Chromium is installed) a
screenshot comes out at the page's width."""

from __future__ import annotations

import html
import io
from datetime import UTC, datetime, timedelta

import pytest
from PIL import Image

from tools.screens.render import BACKGROUND, WIDTHS, Markdown, Message, page, relative
from tools.screens.shoot import NoChromium, chromium, content_height, screenshot

NOON = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)


async def board_message(world) -> Message:
    board = world.message(await world.play(world.alice, "donsol"))
    return Message(content=board.content, embeds=[e.to_dict() for e in board.embeds],
                   components=board.components, user="alice", command="play", at=NOON)


@pytest.mark.parametrize("width", sorted(WIDTHS))
async def test_a_board_renders_with_its_title_fields_and_buttons(world, error_logs, width):
    message = await board_message(world)
    shown = page(message, width)
    embed = message.embeds[0]
    assert html.escape(embed["title"]) in shown
    for field in embed["fields"]:
        assert html.escape(field["name"]) in shown
    assert "Health" in shown and "21/21" in shown
    labels = [b["label"] for b in world.buttons(message)]
    assert labels and all(html.escape(label) in shown for label in labels)
    assert "alice</span> used" in shown and "/play" in shown


def test_inline_fields_sit_in_columns_on_desktop_and_stack_on_a_phone():
    message = Message(embeds=[{"fields": [
        {"name": n, "value": "v", "inline": True} for n in "ABCD"]}])
    assert page(message, "desktop").count("grid-column:1/5") == 1  # A, then B and C beside
    assert "grid-column:1/13" in page(message, "desktop")  # D alone on its row
    assert page(message, "phone").count("grid-column:1/13") == 4


def test_discords_markdown_subset():
    message = Message(at=NOON, names={42: "alice", 7: "games"})
    md = Markdown(message, lambda name: b"\x89PNG" if name == "dd_AS" else None)
    stamp = int((NOON + timedelta(hours=12)).timestamp())
    shown = md.blocks(f"**bold** *it* `co*de*` <@42> <#7> <t:{stamp}:R> <:dd_AS:1> \\*x\\*\n"
                      "> quoted\n```\nblock\n```\nafter")
    assert "<strong>bold</strong>" in shown and "<em>it</em>" in shown
    assert '<code class="inline">co*de*</code>' in shown
    assert "@alice" in shown and "#games" in shown and "in 12 hours" in shown
    assert 'src="data:image/png;base64,' in shown and "*x*" in shown
    assert '<div class="quote">' in shown and '<pre class="codeblock">block</pre>' in shown
    assert shown.endswith("</pre>after")
    assert relative(timedelta(days=-3)) == "3 days ago"
    assert relative(timedelta(seconds=20)) == "in a few seconds"


async def test_a_screenshot_is_as_wide_as_the_page(world, error_logs, tmp_path):
    try:
        chromium()
    except NoChromium as exc:
        pytest.skip(str(exc))
    source = tmp_path / "board.html"
    source.write_text(page(await board_message(world), "phone"), encoding="utf-8")
    shot = screenshot(source, tmp_path / "board.png", WIDTHS["phone"], BACKGROUND)
    with Image.open(io.BytesIO(shot.read_bytes())) as image:
        assert image.width == WIDTHS["phone"]
        assert 300 < image.height <= content_height(image, BACKGROUND) + 16


async def test_the_components_v2_trial_is_a_message_discord_accepts(world, error_logs):
    """The trial's layout (tools/screens/trial.py) is what Discord takes as components v2
    (simcord's validation of it), and the page draws its container, text and buttons."""
    from simcord.components import COMPONENTS_V2_FLAG, validate_message_state

    from tools.screens.trial import IS_COMPONENTS_V2, as_layout

    message = await board_message(world)
    layout = as_layout(message)
    assert IS_COMPONENTS_V2 == COMPONENTS_V2_FLAG and layout.embeds == []
    validate_message_state(layout.components, flags=COMPONENTS_V2_FLAG, content=None,
                           embeds=[])
    (container, *rows) = layout.components
    assert container["type"] == 17 and container["accent_color"] == message.embeds[0]["color"]
    assert [r["type"] for r in rows] == [1] * len(rows)
    shown = page(layout, "phone")
    assert 'class="container"' in shown and html.escape(message.embeds[0]["title"]) in shown
    assert all(html.escape(b["label"]) in shown for b in world.buttons(message))
