"""A local stand-in for Discord (REST and gateway on 127.0.0.1) that the real bot process
connects to, and what the load benchmark and the load tests build on it: starting the bot
process, players who read their boards and click, and checks of the database afterwards."""
