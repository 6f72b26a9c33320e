"""Self-play training of the policy-value network (``python -m gamesuite.train``).

Self-play and the exact check need only numpy; fitting the weights needs the
optional ``gamesuite[train]`` extra (PyTorch).
"""
