"""Benchmarks: each module is a script run as ``python -m bench.NAME`` (see bench/README.md)."""
