"""The /rules text of every game: the rules a player needs, short, with the variants' differences.

Written from ``shared/specs/`` (the decided rules) and the original texts in ``shared/seeds/``;
where the two differ, the spec's decision is what is written here. Each text fits one embed
description (4096 characters).
"""

from __future__ import annotations

DONSOL_RULES = """\
**Donsol** — clear a dungeon of 54 cards, four at a time, before your health runs out.
*Designed by John Eternal (2015); rules published by Hundred Rabbits.*

**The dungeon.** The whole deck, both jokers included, is shuffled. You start with **21 HP** \
(also the maximum). The top four cards form a **room**; take them one at a time, in any order. \
When the room is empty the next four are dealt. Every card you take is 1 XP.

**The cards**
• ♥ **Potions** heal their value (J Q K A = 11), never above 21.
• ♦ **Shields** block their value (J Q K A = 11). A new shield replaces the old one.
• ♣ ♠ **Monsters** hit for their value: 2–10, J 11, Q 13, K 15, A 17; each 🃏 joker 21.

**Fighting.** Without a shield you take the monster's full value. With a shield you take \
value − shield (nothing if the shield is as high), and the monster lies on the shield. \
**Shields wear:** once used, a shield only holds against monsters *lower* than the last one \
on it. An equal or higher monster breaks it: it is discarded and you take the full value.

**Sickness.** A potion right after another potion — with no shield or monster taken in \
between, even across rooms — heals nothing. Taking a shield or fighting a monster cures it; \
escaping does not.

**Escaping.** Instead of finishing a room you may escape: its untaken cards go back under \
the dungeon, the dungeon is reshuffled and a new room is dealt. Your HP, shield and sickness \
stay as they are. When you may escape depends on the variant:
• **normal** (the default): not if you escaped the previous room.
• **easy** (the official rule): not if you escaped the previous room — unless no monster \
is left in this room.
• **hard**: only once no monster is left in this room.
In every variant the first room may always be escaped and the last room never.

**The end.** At 0 HP you are dead, even on the very last card. Take all 54 cards alive and \
you win. **Score:** cards taken, then HP left — every win beats every loss, more HP ranks \
higher among wins, more cards among losses.

**Tips.** Fight big monsters while the shield is fresh, then smaller ones, each lower than \
the last. Put a shield or a monster between two potions. Meet the jokers with a high shield.
"""

TOMB_RULES = """\
**Dungeon Solitaire: Tomb of Four Kings** — delve for the hoards of four Kings and get out \
alive. *Designed by Matthew Lowes (2015).* One variant: **standard**.

**Setup.** The 2–10♥ are your **hit point counter**; the other 44 cards (with one joker) \
are the deck. Each **turn** you turn cards one at a time:
• **Ace** — a torch burns out. The **4th Ace** leaves you lost in the dark, unless the \
Scroll of Light (🃏) is in your hand: it burns instead and that Ace goes to the bottom.
• **Jack** — a skill into your hand, usable once: J♠ Go Berserk (win a fight), J♦ Disarm \
Mechanism (pass a trap), J♣ Pick Lock (open a door), J♥ Dodge Blow (cancel one blow).
• **Queen** — divine favour: the encounter (now or the next one) is won at once.
• **King, 🃏** — treasure, lying in the turn.
• The first **2–10 of ♠ ♦ ♣** is the turn's **encounter**: ♠ monster, ♦ trap, ♣ door. \
Each later one is an **action card**: only its number counts, and it succeeds if it is equal \
or higher.

**Monster ♠.** Keep turning: each lower action card hits you for monster − card; the first \
equal or higher one wins. Before any card you may play J♠, or make a **treasure drop**: put a \
treasure from your hand worth at least the monster (♦ face value, K 10, 🃏 6) into the turn — \
the fight ends, but the turn and all its treasure are lost.
**Trap ♦.** One action card (J♦ first wins). Too low: you take trap − card, the turn is lost.
**Door ♣.** One action card (J♣ before or right after it wins). Too low: discard door − card \
cards from the deck (Aces among them burn as torches) and the turn is lost.

**Damage.** Turn that many hearts of the counter. At 9 damage the 2♥ turns: you are dead \
(8 is survivable). With J♥ in hand you choose, blow by blow, to dodge or take it.

**Winning an encounter.** Every treasure of the turn joins your hand: each 2–10♦ (even the \
trap itself or a failed card), each King, the 🃏. One card must stay to mark the turn: if only \
treasure is left, you choose one to leave behind.

**Delve and retreat.** After each turn, go deeper or turn back. After N delve turns the way \
out takes N − 1 retreat turns, played the same way; no delving again after turning back. An \
empty deck leaves you lost in the dark.

**Score.** Out alive: Kings / points, e.g. 3/41 (K 10, ♦ face value, 🃏 6 if still in hand; \
at most 4/100). **Won** = out alive with all four Kings. Dead or lost in the dark: 0.
"""

CLEAR_RULES = """\
**Clear the Dungeon** — slay all twelve monsters with the cards of the power deck. \
One variant: **standard** (PySolFC's game 909).

**The dungeon.** The twelve face cards are four piles of three monsters; only each pile's \
top monster is face up and can be attacked. A monster's power: **J 11, Q 12, K 13**. The other \
42 cards are the **power deck**; it deals three cards to your **hand** at a time, 14 deals in \
all, and never comes round again.

**Slaying a monster** takes exactly three attack cards, put on it one at a time:
1. **First and second:** together at least the monster's power. A first card must leave this \
possible (card + 10 ≥ power): any card on a J, no Ace on a Q, 3 or more on a K.
2. **Third:** a card of the **monster's suit** (any rank).
Values: A = 1, 2–10 face value; a 🃏 joker is worth 10 and counts as every suit. Once slain, \
the monster and its three cards leave the table and the next monster of that pile turns up.

**Your moves**
• Put a hand card onto a monster.
• Put a hand card onto the **reserve**, a single face-up pile (no limit).
• Put the reserve's top card onto a monster. Nothing goes back from the reserve to the hand.
When all three hand cards are played, the next three are dealt at once.

**The end.** You **win** when all 12 monsters are slain, whatever is left. You are **stuck** \
when no move is left. **Score:** monsters slain, then power cards never used (the power deck \
plus the hand) — a win beats every non-win, and the thriftier run ranks higher.

**On the board.** Your moves are a grid: a row for each card you can play (your hand, then \
the reserve's top), a column for each pile and one for the reserve. A greyed-out button is a \
pile that does not take that card now.
"""

#: The /rules text per game key.
RULEBOOK: dict[str, str] = {
    "donsol": DONSOL_RULES,
    "tomb": TOMB_RULES,
    "clear": CLEAR_RULES,
}
