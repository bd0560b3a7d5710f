"""stratego: a fast, faithful Stratego simulator for reinforcement learning.

Not affiliated with Jumbo, who own the Stratego trademark.
"""
from . import _core, records
from .agents import policy
from .actions import (
    ACTION_MAX, ACTION_NB, action_to_move, action_to_squares, decode_action, move_to_action,
    rescue_to_action, squares_to_action,
)
from .common.arrays import mask_bytes, pack_mask, unpack_mask
from .compact import codes_bytes, expand_full_observation, expand_observation
from .game import Game
from .observation import OBSERVATION_VERSION, channel_names, format_observation
from .notation import format_move, format_square, parse_move, parse_square
from .common.threads import default_num_threads
from .variants import Variant, load_variant, variants
from .vec_env import END_REASONS, VecEnv
from .integrations.gym_env import StrategoEnv  # registers the Gymnasium id "stratego/Stratego-v0"

__version__ = "0.1.0"
STATE_BYTES: int = _core.STATE_BYTES
BOTS: tuple[str, ...] = _core.BOT_NAMES  # the bots Game.bot_move and VecEnv.bot_actions know
SAVE_VERSION: int = _core.SAVE_VERSION  # format of Game pickles and VecEnv saves (docs/api.md)
GAME_SAVE_BYTES: int = _core.GAME_SAVE_BYTES  # one game save: a world of VecEnv.sample_worlds

__all__ = [
    "ACTION_MAX", "ACTION_NB", "BOTS", "records", "END_REASONS", "GAME_SAVE_BYTES", "Game", "OBSERVATION_VERSION", "SAVE_VERSION", "STATE_BYTES", "StrategoEnv", "VecEnv", "Variant",
    "action_to_move", "action_to_squares", "channel_names", "decode_action", "default_num_threads", "rescue_to_action", "format_observation", "format_move", "format_square", "load_variant",
    "move_to_action", "codes_bytes", "expand_full_observation", "expand_observation", "mask_bytes", "pack_mask",
    "unpack_mask", "parse_move", "parse_square", "squares_to_action", "variants",
]


def __getattr__(name: str):
    # stratego.integrations.pettingzoo needs the train extra: imported on first use, not with stratego.
    if name == "pettingzoo":
        import importlib
        return importlib.import_module(".integrations.pettingzoo", __name__)
    raise AttributeError(f"module 'stratego' has no attribute {name!r}")
