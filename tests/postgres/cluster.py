"""A throwaway PostgreSQL cluster in a temporary folder, for the tests and the benchmarks.

``initdb`` makes a cluster that listens on a Unix socket in that folder only (no TCP port, so
nothing else on the machine can reach it, and several can run side by side); ``pg_ctl``
starts and stops it; the folder goes with it. The binaries are looked for in ``$PG_BIN``
if it is set (``PG_BIN=none`` runs the tests as on a machine without PostgreSQL), else in
``/usr/lib/postgresql/<version>/bin`` (Debian's layout, newest first), then on ``$PATH``.

PostgreSQL refuses to run as root: as root, the binaries run as the ``postgres`` user (which
Debian's package creates) and the folder is given to it.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import psycopg

#: The only account the cluster has; it needs no password on its private socket.
USER = "dungeon"
#: Quick and disposable: nothing is flushed to disk (the tests' default).
FAST = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}
#: Every commit durable, as production runs it (the benchmarks' default).
DURABLE = {"fsync": "on", "synchronous_commit": "on", "full_page_writes": "on"}


class Unavailable(Exception):
    """No PostgreSQL here (or no way to run it); the message says what is missing."""


def find_bin() -> Path:
    """The folder holding ``initdb`` and ``pg_ctl``; ``Unavailable`` if there is none."""
    candidates: list[Path] = []
    if os.environ.get("PG_BIN"):  # that folder only (PG_BIN=none: test without PostgreSQL)
        candidates.append(Path(os.environ["PG_BIN"]))
    debian = Path("/usr/lib/postgresql")
    if candidates:
        pass
    elif debian.is_dir():
        versions = sorted((p for p in debian.iterdir() if p.name.isdigit()),
                          key=lambda p: int(p.name), reverse=True)
        candidates += [p / "bin" for p in versions]
    on_path = shutil.which("initdb")
    if on_path and not os.environ.get("PG_BIN"):
        candidates.append(Path(on_path).parent)
    for folder in candidates:
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    raise Unavailable(
        "PostgreSQL is not installed (no initdb in $PG_BIN, or else /usr/lib/postgresql/*/bin "
        "or $PATH; on Debian: apt-get install postgresql-15)"
    )


class Cluster:
    """One running cluster. Use as a context manager, or ``start()`` and ``stop()``."""

    def __init__(self, settings: dict[str, str] | None = None, *, max_connections: int = 200
                 ) -> None:
        self.bin = find_bin()
        self.settings = {**FAST, **(settings or {})}
        self.max_connections = max_connections
        self.folder = Path(tempfile.mkdtemp(prefix="dd-pg-"))
        self.data = self.folder / "data"
        self.log = self.folder / "server.log"
        self._user = _run_as()
        self._databases = 0

    # ----- life -------------------------------------------------------------------------------

    def start(self) -> Cluster:
        if self._user is not None:
            os.chown(self.folder, self._user.pw_uid, self._user.pw_gid)
        self._pg("initdb", "-D", str(self.data), "-U", USER, "--auth=trust", "-E", "UTF8",
                 "--locale=C", "--no-sync")
        options = {
            "listen_addresses": "''",
            "unix_socket_directories": f"'{self.folder}'",
            "max_connections": str(self.max_connections),
            **self.settings,
        }
        with (self.data / "postgresql.conf").open("a") as conf:
            conf.writelines(f"{name} = {value}\n" for name, value in options.items())
        self._pg("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60",
                 "start")
        return self

    def stop(self) -> None:
        """Stop the server at once and remove the folder."""
        with contextlib.suppress(subprocess.CalledProcessError, FileNotFoundError):
            self._pg("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> Cluster:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ----- databases --------------------------------------------------------------------------

    def url(self, database: str = "postgres") -> str:
        """The URL of ``database`` on this cluster (over its Unix socket)."""
        return f"postgresql://{USER}@/{database}?host={self.folder}"

    def create_database(self, name: str | None = None, *, template: str = "template0") -> str:
        """A new database, a copy of ``template`` (default: empty); its URL."""
        if name is None:
            self._databases += 1
            name = f"db{self._databases}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            # FILE_COPY: much quicker than the default WAL_LOG for small databases.
            conn.execute(  # type: ignore[call-overload]
                f'CREATE DATABASE "{name}" TEMPLATE "{template}" STRATEGY FILE_COPY'
            )
        return self.url(name)

    def _pg(self, program: str, *args: str) -> None:
        command = [str(self.bin / program), *args]
        if self._user is not None:
            command = ["runuser", "-u", self._user.pw_name, "--", *command]
        done = subprocess.run(command, cwd=self.folder, capture_output=True, text=True)
        if done.returncode != 0:
            raise subprocess.CalledProcessError(done.returncode, command, done.stdout,
                                                done.stderr + _tail(self.log))


def _run_as() -> pwd.struct_passwd | None:
    """The account to run PostgreSQL as: None (ourselves) unless we are root."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam("postgres")
    except KeyError:
        raise Unavailable(
            "running as root and there is no 'postgres' user to run PostgreSQL as "
            "(initdb refuses root)"
        ) from None


def _tail(log: Path) -> str:
    try:
        return "\n" + "\n".join(log.read_text().splitlines()[-20:])
    except OSError:
        return ""


@contextlib.contextmanager
def cluster(settings: dict[str, str] | None = None) -> Iterator[Cluster]:
    """A started cluster for the block."""
    with Cluster(settings) as running:
        yield running
