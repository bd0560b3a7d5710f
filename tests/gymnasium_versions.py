"""What the installed Gymnasium's vector wrappers make of a SAME_STEP env (VecEnv's
default autoreset mode): the package supports every Gymnasium its pyproject declares,
and these wrappers are Gymnasium's, so their tests follow the version installed."""
from __future__ import annotations

import gymnasium
from packaging.version import Version

#: Gymnasium 1.4 made its vector wrappers SAME_STEP-aware: RecordEpisodeStatistics counts
#: a slot's next episode from the step that reset it, and the observation wrappers refuse
#: SAME_STEP. Before 1.4 RecordEpisodeStatistics assumes NEXT_STEP (it drops the first
#: step of each next episode), so with an older Gymnasium it needs
#: autoreset_mode="next_step" (docs/agents.md "Gymnasium versions").
SAME_STEP_WRAPPERS = Version(gymnasium.__version__) >= Version("1.4")
