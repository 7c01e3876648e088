"""Running the bot process: start-up with retries and a clean stop (``lifecycle``) and its
logs (``logs``). Online backups of the database are in ``store.backup`` (SQL stays in the
store)."""
