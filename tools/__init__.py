"""Developer tools run from the checkout (not installed with the bot)."""
