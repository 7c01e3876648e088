"""The transaction object the core receives: every concern's queries over one connection.

A new concern (a month board, ratings, seasons) is a module of its own, with its Protocol
(added to ``store.base.Tx``) and its ``...Sql`` class (added here); no other module changes.
"""

from __future__ import annotations

from store.boards import BoardsSql
from store.challenges import ChallengesSql
from store.dialect import Db
from store.pars import ParsSql
from store.posts import PostsSql
from store.ratings import RatingsSql
from store.records import RecordsSql
from store.reminders import RemindersSql
from store.runs import RunsSql
from store.seasons import SeasonsSql
from store.series import SeriesSql
from store.settings import SettingsSql


class SqlTx(
    RunsSql, SettingsSql, PostsSql, BoardsSql, RecordsSql, ChallengesSql, SeriesSql, ParsSql,
    SeasonsSql, RatingsSql, RemindersSql,
):
    """The named queries of ``store.base.Tx`` over one connection inside one transaction."""

    def __init__(self, db: Db) -> None:
        self.db = db
