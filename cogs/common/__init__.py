"""What every cog shares: the client as the cogs see it, answers, persistent buttons, board and
challenge messages, sending into a game's home, options parsing.

Nothing here imports a feature cog (``cogs/*.py``): the feature cogs import this package, and
the composition root (``bot/app.py``) imports both. A button's click reaches its flow through
``cogs/clicks.py``, which sets each button's ``on_click``.
"""
