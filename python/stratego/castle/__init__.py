"""The 3/4-player castle game (Jumbo's Stratego 4), docs/castle.md: `Game`, its settings and tables."""
from .game import IllegalMove, Game, action_table, geometry
from .variants import load_settings, variant_names
from .observation import CHANNELS, CODES_BYTES, expand_observation
from .vec_env import VecEnv

__all__ = ["Game", "IllegalMove", "action_table", "geometry", "load_settings", "variant_names",
           "CHANNELS", "CODES_BYTES", "expand_observation", "VecEnv"]
