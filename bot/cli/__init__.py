"""The ``idzeva`` command (``bot.cli.main``)."""
