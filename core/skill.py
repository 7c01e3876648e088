"""The rating of one closed day: its global board as one many-player match, rated with
openskill's Plackett–Luce model (Weng and Lin 2011, Algorithm 4), one player per team.

``openskill.models.PlackettLuce.rate(teams, ranks=...)`` is the reference, and the tests
check that :func:`rate_day` gives its numbers (to 1e-9) on boards with ties. It is not called
on whole days because it compares every player with every other: 0.7 s of CPU for 4,000
players here, about 7 minutes for 100,000. The same sums, taken over rank groups from the
top down, cost one pass (see :func:`rate_day`), with openskill's own parameters (``mu``,
``sigma``, ``beta``, ``tau``, ``kappa``). Tied players share a rank, which enters every
sum as openskill's does (a group of ``a`` tied players splits each of its terms by ``a``);
openskill 6 then means to average ``mu``'s change over a tie group, but that step changes
nothing there (it compares each player with itself), so neither does it here: tied players
with different ratings before the day move by different amounts, as in openskill.

**The readable scale:** :func:`shown` is openskill's conservative ordinal μ − 3σ (the skill
the player is very likely above) as ``round(1000 + 40 × (μ − 3σ))``: a new player starts at
1000 (μ = 25, σ = 25/3), and each rated day mostly raises it as σ shrinks, more for good
days. A rating is **provisional** until :data:`ESTABLISHED_DAYS` rated days.

Pure: plain floats in, plain floats out (run in a worker process for large days).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
#: A rating counts as established (not provisional) from this many rated days.
ESTABLISHED_DAYS = 10
SCALE_BASE = 1000
SCALE_STEP = 40


@dataclass(frozen=True)
class Skill:
    """One player's rating in one game and variant."""

    mu: float
    sigma: float
    days: int = 0

    @property
    def shown(self) -> int:
        return shown(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.days < ESTABLISHED_DAYS


NEW = Skill(MODEL.mu, MODEL.sigma, 0)


def shown(mu: float, sigma: float) -> int:
    """The rating players see: openskill's ordinal (μ − 3σ) on the readable scale."""
    ordinal = MODEL.rating(mu=mu, sigma=sigma).ordinal()
    return round(SCALE_BASE + SCALE_STEP * ordinal)


def rate_day(players: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """The new ``(mu, sigma)`` of each player of a day's board, given their ``(mu, sigma)``
    before it and their ranks (lower is better, equal ranks tie), in the board's order.

    ``players`` must be listed best rank first (as a board is). With one player per team,
    openskill's sums over the teams ``q`` ranked at or above ``i`` depend on ``q``'s rank group
    only, so they are prefix sums over the groups: for a group ``g`` with ``S_g`` the sum of
    ``exp(mu/c)`` over the players ranked at or below it, openskill's ``omega`` is
    ``1/a_i - e_i Σ 1/S_g`` and its ``delta`` is ``e_i Σ 1/S_g - e_i² Σ 1/S_g²``.
    """
    n = len(players)
    if n != len(ranks):
        raise ValueError("one rank per player")
    if any(b < a for a, b in itertools.pairwise(ranks)):
        raise ValueError("players must be listed best rank first")
    if n < 2:  # no match: nothing changes
        return list(players)
    tau_sq = MODEL.tau * MODEL.tau
    beta_sq = MODEL.beta * MODEL.beta
    sigma_sq = [sigma * sigma + tau_sq for _, sigma in players]  # openskill's tau first
    c = math.sqrt(sum(s + beta_sq for s in sigma_sq))
    exps = [math.exp(mu / c) for mu, _ in players]
    # The rank groups, top down: [start, end) of each.
    groups: list[tuple[int, int]] = []
    start = 0
    for i in range(1, n + 1):
        if i == n or ranks[i] != ranks[start]:
            groups.append((start, i))
            start = i
    # S_g: exp sums of the players ranked at or below each group (suffix sums).
    below = [0.0] * len(groups)
    total = 0.0
    for g in range(len(groups) - 1, -1, -1):
        first, end = groups[g]
        total += sum(exps[first:end])
        below[g] = total
    result: list[tuple[float, float]] = []
    inv, inv_sq = 0.0, 0.0
    for g, (first, end) in enumerate(groups):
        inv += 1.0 / below[g]
        inv_sq += 1.0 / (below[g] * below[g])
        size = end - first
        for i in range(first, end):
            e = exps[i]
            s_sq = sigma_sq[i]
            omega = (1.0 / size - e * inv) * s_sq / c
            gamma = math.sqrt(s_sq) / c
            delta = (e * inv - e * e * inv_sq) * s_sq / (c * c) * gamma
            result.append(
                (players[i][0] + omega, math.sqrt(s_sq) * math.sqrt(max(1 - delta, MODEL.kappa)))
            )
    return result


def competition_ranks(keys: list[str]) -> list[int]:
    """Ranks 1, 2, 2, 4 of scores listed best first (equal keys tie)."""
    ranks: list[int] = []
    for i, key in enumerate(keys):
        ranks.append(ranks[-1] if i and key == keys[i - 1] else i + 1)
    return ranks
