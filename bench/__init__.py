"""Benchmarks: ``make bench`` (``python -m bench``) prints a table per game."""
