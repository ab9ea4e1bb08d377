"""Tournaments in a server (issue 32): round robin, double round robin, Swiss and knockout.

- ``model``: players, results and byes, pure data;
- ``round_robin``, ``swiss``, ``knockout``: who plays whom (pure);
- ``standings``: the table and its tie-breaks (pure).
"""
