"""``python -m tools.screens``: capture every screen and screenshot it (see README.md there)."""

from tools.screens.make import main

if __name__ == "__main__":
    raise SystemExit(main())
