"""The systemd install recipe works as written: deploy/install.sh, which the unit's comment
runs, is run as root on a fresh clone of this repository for a system user that does not exist
yet, and the user ends up owning the clone, its .venv, data/ and backups/ (private) and .env
(0600), with a unit that names the clone and the user.

It runs the script's fast path (``--no-test``: .venv without the pip install and ``make test``)
and writes the unit into a temporary folder, not /etc/systemd/system; nothing is started.
It needs root (it creates and removes a user), so it is skipped elsewhere; CI runs as root.
The clone is of HEAD: commit a change to install.sh before this test can see it.
"""

from __future__ import annotations

import os
import pwd
import secrets
import shutil
import stat
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "deploy" / "dungeon-deck.service"
#: What the user's commands see: the system's folders, none of root's own (pyenv in /root).
SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


def test_the_units_recipe_runs_the_install_script() -> None:
    recipe = UNIT.read_text().split("[Unit]")[0]
    assert "/srv/dungeon-deck/deploy/install.sh" in recipe
    assert "make test" not in [line.strip("# ") for line in recipe.splitlines()], (
        "the recipe runs install.sh, which runs make test as the user"
    )
    assert os.access(ROOT / "deploy" / "install.sh", os.X_OK)


def _requirements() -> str | None:
    """Why this machine cannot run the install, or None."""
    if os.geteuid() != 0:
        return "needs root: it creates and removes a system user (CI runs as root)"
    missing = [tool for tool in ("useradd", "userdel", "runuser", "git")
               if shutil.which(tool, path=SYSTEM_PATH) is None]
    if missing:
        return f"needs {', '.join(missing)}"
    if not (ROOT / ".git").exists():
        return "needs a git checkout to clone"
    python = shutil.which("python3", path=SYSTEM_PATH)
    if python is None or subprocess.run(
        [python, "-c", "import sys, venv; sys.exit(sys.version_info < (3, 11))"]
    ).returncode:
        return "needs a Python 3.11 with venv in the system's PATH for the new user"
    return None


def _install(clone: Path, user: str, units: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(clone / "deploy" / "install.sh"), "--user", user, "--unit-dir", str(units), *args],
        env={"PATH": SYSTEM_PATH, "LANG": "C.UTF-8"},
        capture_output=True, text=True, timeout=120,
    )


def _as(user: str, *command: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["runuser", "-u", user, "--", *command], cwd=cwd,
                          env={"PATH": SYSTEM_PATH}, capture_output=True, text=True, timeout=60)


def _unit_settings(text: str) -> dict[str, str]:
    return dict(line.split("=", 1) for line in text.splitlines()
                if "=" in line and not line.startswith("#"))


def _remove_user(user: str) -> None:
    subprocess.run(["userdel", user], capture_output=True)
    subprocess.run(["groupdel", user], capture_output=True)  # where userdel kept the group


def test_install_gives_a_fresh_clone_to_a_new_system_user() -> None:
    reason = _requirements()
    if reason:
        pytest.skip(reason)
    user = f"dd-test-{secrets.token_hex(3)}"
    started = time.monotonic()
    # Under /tmp, searchable by all as /srv is: pytest's own tmp_path is root's alone (0700).
    base = Path(tempfile.mkdtemp(prefix="dungeon-deck-install-", dir="/tmp"))
    try:
        base.chmod(0o755)
        clone, units = base / "dungeon-deck", base / "units"
        subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)],
                       check=True, capture_output=True, timeout=60)  # as root, as the recipe
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"],
                              capture_output=True, text=True, check=True).stdout
        assert subprocess.run(["git", "-C", str(clone), "rev-parse", "HEAD"],
                              capture_output=True, text=True, check=True).stdout == head

        done = _install(clone, user, units, "--no-test")
        assert done.returncode == 0, done.stdout + done.stderr
        account = pwd.getpwnam(user)
        assert account.pw_dir == str(clone) and account.pw_uid < 1000  # a system user
        assert account.pw_shell.endswith("nologin")

        # The clone is the user's, every file of it: .venv was built by the user.
        strangers = [p for p in [clone, *clone.rglob("*")]
                     if p.lstat().st_uid != account.pw_uid]
        assert strangers == [], f"not {user}'s: {strangers[:5]}"
        python = _as(user, ".venv/bin/python", "-c", "import sys; print(sys.prefix)", cwd=clone)
        assert python.returncode == 0 and python.stdout.strip() == str(clone / ".venv")

        for name in ("data", "backups"):
            folder = clone / name
            mode = stat.S_IMODE(folder.stat().st_mode)
            assert folder.is_dir() and folder.stat().st_uid == account.pw_uid
            assert mode & 0o077 == 0, f"{name}/ is {oct(mode)}: readable by others"
            wrote = _as(user, "touch", f"{name}/written", cwd=clone)
            assert wrote.returncode == 0, wrote.stderr

        env = clone / ".env"
        assert stat.S_IMODE(env.stat().st_mode) == 0o600 and env.stat().st_uid == account.pw_uid
        assert env.read_text() == (clone / ".env.example").read_text()

        unit = (units / "dungeon-deck.service").read_text()
        settings = _unit_settings(unit)
        assert settings["User"] == user and settings["Group"] == user
        assert settings["WorkingDirectory"] == str(clone)
        assert settings["ExecStart"] == f"{clone}/.venv/bin/python -m bot"
        assert settings["ReadWritePaths"].split() == [str(clone / "data"), str(clone / "backups")]
        assert "/srv/dungeon-deck" not in unit.split("[Unit]")[1]
        if shutil.which("systemd-analyze"):
            verify = subprocess.run(
                ["systemd-analyze", "verify", str(units / "dungeon-deck.service")],
                capture_output=True, text=True, timeout=60)
            assert verify.returncode == 0 and "dungeon-deck.service" not in verify.stderr, (
                verify.stderr)

        # Run again: an operator's .env is kept, and made private again if it was opened up.
        env.write_text("DISCORD_TOKEN=kept\n")
        env.chmod(0o644)
        again = _install(clone, user, units, "--no-test")
        assert again.returncode == 0, again.stdout + again.stderr
        assert env.read_text() == "DISCORD_TOKEN=kept\n"
        assert stat.S_IMODE(env.stat().st_mode) == 0o600

        refused = _as(user, "deploy/install.sh", "--no-test", cwd=clone)
        assert refused.returncode == 1 and "run me as root" in refused.stderr
    finally:
        _remove_user(user)
        shutil.rmtree(base, ignore_errors=True)
    with pytest.raises(KeyError):
        pwd.getpwnam(user)
    assert not base.exists()
    assert time.monotonic() - started < 30, "keep the install test fast: CI runs it"
