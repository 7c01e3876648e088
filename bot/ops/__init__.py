"""Running the bot process: start-up with retries and a clean stop (``lifecycle``), its logs
(``logs``), and online backups of its database (``backup``)."""
