"""How long a test waits for a prompt, a child process or a thread before it calls the
wait a hang: generous on purpose (a test that fails because the machine is busy fails CI
at random), and scaled by STRATEGO_TEST_TIMEOUT_SCALE (e.g. 3) on a slow or loaded
machine. Tests wait on events (a prompt, an exit, a queue) wherever they can; these
limits only turn a real hang into a failure."""
from __future__ import annotations

import os

SCALE = float(os.environ.get("STRATEGO_TEST_TIMEOUT_SCALE", "1"))


def patience(seconds: float) -> float:
    """`seconds`, scaled by STRATEGO_TEST_TIMEOUT_SCALE."""
    return seconds * SCALE
