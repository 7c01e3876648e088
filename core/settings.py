"""Settings kept in the database: per-server settings and the operator's meta values."""

from __future__ import annotations

from core.checks import check_id
from core.context import Context
from store.base import Tx


class Settings:
    """Per-server settings (key -> text) and meta values (command-sync hashes, ...)."""

    def __init__(self, ctx: Context) -> None:
        self._ctx = ctx

    async def guild(self, guild_id: int) -> dict[str, str]:
        """A server's settings."""
        return await self._ctx.store.read(_guild, check_id(guild_id, "server"))

    async def set_guild(self, guild_id: int, key: str, value: str) -> dict[str, str]:
        """Set one of a server's settings; all of them as they now stand."""
        return await self._ctx.store.write(_set_guild, check_id(guild_id, "server"), key, value)

    async def meta(self, key: str) -> str | None:
        return await self._ctx.store.read(_meta, key)

    async def set_meta(self, key: str, value: str) -> None:
        await self._ctx.store.write(_set_meta, key, value)


def _guild(tx: Tx, guild_id: int) -> dict[str, str]:
    return tx.guild_settings(guild_id)


def _set_guild(tx: Tx, guild_id: int, key: str, value: str) -> dict[str, str]:
    tx.set_guild_setting(guild_id, key, value)
    return tx.guild_settings(guild_id)


def _meta(tx: Tx, key: str) -> str | None:
    return tx.meta(key)


def _set_meta(tx: Tx, key: str, value: str) -> None:
    tx.set_meta(key, value)
