"""The layer both games stand on (classic `stratego` and `stratego.castle`): seeds,
thread counts, argument checks, array ops over NumPy or torch, JSON-lines reading,
variant files, whole-or-nothing file writes, pickle checks and the PettingZoo base.
Nothing here knows a game's rules; a game's modules import from here, never from each
other's private names (tests/test_python_layers.py)."""
