"""render_mode="rgb_array" (issue 29, item 1): the boards as RGB images drawn with NumPy
(stratego.viewing.raster, stratego.castle.raster), for the Gymnasium env and the PettingZoo envs of
both games; and what video tools and SB3's make_vec_env do with them (heavy: SB3, moviepy)."""
from __future__ import annotations

import numpy as np
import pytest

import stratego
from stratego.integrations.gym_env import ENV_ID, StrategoEnv
from stratego.viewing.raster import BACKGROUND, board_rgb, rgb
from stratego.viewing.svg import COLORS, MARGIN, SQUARE


def _square_pixel(picture: np.ndarray, column: int, row: int, dx: int, dy: int) -> np.ndarray:
    """A pixel of the square at (column, row) from the picture's top-left corner."""
    return picture[MARGIN + row * SQUARE + dy, MARGIN + column * SQUARE + dx]


def test_the_picture_is_the_svgs_layout_and_colours():
    game = stratego.Game(seed=3)
    picture = game.rgb("full")
    assert picture.shape == (10 * SQUARE + 2 * MARGIN,) * 2 + (3,) and picture.dtype == np.uint8
    assert (picture[0, 0] == rgb(BACKGROUND)).all()
    # Red at the bottom: A1 (a red piece) is the bottom-left square, C5 a lake.
    assert (_square_pixel(picture, 0, 9, 6, 6) == rgb(COLORS["r"])).all()
    assert (_square_pixel(picture, 0, 0, 6, 6) == rgb(COLORS["b"])).all()
    assert (_square_pixel(picture, 2, 5, 20, 20) == rgb(COLORS["lake"])).all()
    assert (_square_pixel(picture, 0, 5, 1, 1) == rgb(COLORS["light"])).all()  # A5: (4 + 0) % 2 == 0, light
    assert (_square_pixel(picture, 1, 5, 1, 1) == rgb(COLORS["dark"])).all()  # B5
    # Blue's view turns the board: its own pieces at the bottom, red's translucent "?".
    view = game.rgb("blue")
    assert (_square_pixel(view, 0, 9, 6, 6) == rgb(COLORS["b"])).all()
    assert not (_square_pixel(view, 0, 0, 6, 6) == rgb(COLORS["r"])).all()


def test_a_players_picture_is_drawn_from_its_view_only():
    # Two positions that differ only in where two of red's unmoved pieces stand look the
    # same to blue, and differ on the full board.
    a = stratego.Game(seed=5)
    field = a.field
    i = next(k for k in range(1, 40) if field[k] != field[0])
    swapped = field[i] + field[1:i] + field[0] + field[i + 1:]
    b = stratego.Game.from_field(swapped)
    assert np.array_equal(a.rgb("blue"), b.rgb("blue"))
    assert not np.array_equal(a.rgb("red"), b.rgb("red"))
    assert not np.array_equal(a.rgb("full"), b.rgb("full"))


def test_the_last_move_is_framed():
    game = stratego.Game(seed=2)
    before = game.rgb()
    move = game.legal_moves()[0]
    game.play(move)
    src, dst = stratego.parse_move(move)
    after = game.rgb()
    x, y = MARGIN + (dst % 10) * SQUARE, MARGIN + (9 - dst // 10) * SQUARE
    assert (after[y + 2, x + 2] == rgb(COLORS["last"])).all() and not np.array_equal(before, after)


def test_bad_tokens_are_refused():
    with pytest.raises(ValueError, match="100 tokens"):
        board_rgb(["."] * 99)


def test_gym_env_rgb_array_is_the_learners_view():
    env = StrategoEnv(render_mode="rgb_array", learner_color="blue")
    env.reset(seed=0)
    picture = env.render()
    assert picture.shape == (436, 436, 3) and picture.dtype == np.uint8
    assert np.array_equal(picture, env.game.rgb("blue"))
    assert "rgb_array" in StrategoEnv.metadata["render_modes"]


def test_every_registered_id_takes_rgb_array():
    import gymnasium as gym
    ids = [env_id for env_id in gym.registry if env_id.startswith("stratego/")]
    assert ENV_ID in ids
    for env_id in ids:
        env = gym.make(env_id, render_mode="rgb_array")
        env.reset(seed=1)
        assert env.render().shape == (436, 436, 3)
        env.close()


def test_castle_pictures_show_a_seat_only_what_it_knows():
    from stratego.castle import Game
    for mode, rows in (("ffa4", 15), ("ffa3", 12)):
        game = Game(mode, seed=1)
        full, seat = game.rgb(), game.rgb(0)
        assert full.shape == (rows * 30 + 36, 15 * 30 + 36, 3) and full.dtype == np.uint8
        assert not np.array_equal(full, seat)  # the others' ranks are "?" to seat 0
        assert np.array_equal(seat, Game(mode, seed=1).rgb(0))


# ---------------------------------------------------------------- heavy: PettingZoo, SB3, moviepy

@pytest.mark.heavy
@pytest.mark.parametrize("game", ["classic", "castle"])
def test_pettingzoo_rgb_array_is_the_full_board(game):
    pytest.importorskip("pettingzoo")
    if game == "classic":
        from stratego.integrations import pettingzoo as pz
    else:
        from stratego.castle import pettingzoo as pz
    env = pz.env(render_mode="rgb_array")
    env.reset(seed=2)
    picture = env.render()
    assert picture.ndim == 3 and picture.shape[2] == 3 and picture.dtype == np.uint8
    assert np.array_equal(picture, env.unwrapped._game.rgb())
    assert env.metadata["render_modes"] == ["ansi", "human", "rgb_array"]


@pytest.mark.heavy
def test_sb3_make_vec_env_and_its_video_recorder(tmp_path):
    pytest.importorskip("moviepy")
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import VecVideoRecorder
    env = make_vec_env(ENV_ID, n_envs=2, seed=0, env_kwargs={"max_plies": 40})
    assert env.reset().shape == (2, 68, 10, 10)
    assert env.get_images()[0].shape == (436, 436, 3)
    env = VecVideoRecorder(env, str(tmp_path), record_video_trigger=lambda step: step == 0, video_length=6)
    env.reset()
    for _ in range(6):
        masks = np.stack(env.env_method("action_masks"))
        env.step(np.array([np.flatnonzero(m)[0] for m in masks]))
    env.close()
    videos = list(tmp_path.glob("*.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 0


@pytest.mark.heavy
def test_gymnasium_record_video_writes_a_video(tmp_path):
    pytest.importorskip("moviepy")
    import gymnasium as gym
    from gymnasium.wrappers import RecordVideo
    env = RecordVideo(gym.make(ENV_ID, render_mode="rgb_array", max_plies=30), str(tmp_path / "videos"),
                      episode_trigger=lambda episode: episode == 0)
    _, info = env.reset(seed=0)
    done = False
    while not done:
        _, _, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        done = terminated or truncated
    env.close()
    videos = list((tmp_path / "videos").glob("*.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 0
