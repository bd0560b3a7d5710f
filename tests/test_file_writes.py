"""Every file the package writes is written whole or not at all (stratego.common.atomic_write,
docs/testing.md "Reliability"): a write that fails leaves the target absent or as it
was, and no temporary file; an append adds whole lines or nothing; a file that ends in
a partial line is reported by the reader and refused by the appender.

A full disk is simulated without root: a child process with a small RLIMIT_FSIZE gets
EFBIG where a full disk gives ENOSPC (Python ignores SIGXFSZ, so the write fails
instead of killing the process), at the same place in the same write.
"""
from __future__ import annotations

import os
import resource
import subprocess
import sys
import textwrap

import pytest

import stratego
from stratego.common.atomic_write import LineAppender, TornTailError, atomic_write, write_file
from stratego.castle import records as castle_records
from stratego.records import RecordError, iter_jsonl, read_jsonl, write_jsonl

CLI = [sys.executable, "-m", "stratego.cli"]


def _limited(limit: int):
    def apply():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))
    return apply


def run_limited(args: list[str], limit: int, stdin: str = "") -> subprocess.CompletedProcess:
    """`args` in a child whose files may not grow past `limit` bytes."""
    return subprocess.run(args, input=stdin, capture_output=True, text=True, timeout=600, preexec_fn=_limited(limit),
                          env={**os.environ, "OMP_NUM_THREADS": "1"})


def python_limited(code: str, limit: int) -> subprocess.CompletedProcess:
    return run_limited([sys.executable, "-c", textwrap.dedent(code)], limit)


def listing(folder) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.fixture
def games_file(tmp_path):
    """A JSON lines file of three finished games (read by view and pairs)."""
    games = []
    for seed in range(3):
        game = stratego.Game("classic", seed=seed)
        while not game.done and game.ply < 60:
            game.play(game.bot_move("random"))
        game.resign(game.to_move) if not game.done else None
        games.append(game)
    path = tmp_path / "games.jsonl"
    write_jsonl(games, path)
    return path


def test_efbig_is_what_a_child_gets(tmp_path):
    done = python_limited(f"""
        import errno
        try:
            open({str(tmp_path / "big")!r}, "wb").write(b"x" * 10000)
        except OSError as exc:
            print(errno.errorcode[exc.errno])
        """, 1000)
    assert done.stdout.strip() == "EFBIG", done.stderr


# Each command with its target in folder out/: (arguments, the target's name).
COMMANDS = {
    "record": (["record", "--games", "300", "--num-envs", "64", "--no-progress", "-o", "{out}/g.jsonl"], "g.jsonl"),
    "record gz": (["record", "--games", "300", "--num-envs", "64", "--no-progress", "-o", "{out}/g.jsonl.gz"],
                  "g.jsonl.gz"),
    "view": (["view", "{games}", "-o", "{out}/g.html"], "g.html"),
    "pairs": (["pairs", "{games}", "-o", "{out}/p.npz"], "p.npz"),
    "arena": (["arena", "random", "heuristic", "--games", "4", "--max-plies", "40", "--no-progress",
               "--json", "{out}/a.json"], "a.json"),
}


@pytest.mark.parametrize("old", [None, b"old content\n"], ids=["absent", "existing"])
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_command_on_a_full_disk_leaves_the_target_as_it_was(tmp_path, games_file, command, old):
    out = tmp_path / "out"
    out.mkdir()
    args, name = COMMANDS[command]
    if old is not None:
        (out / name).write_bytes(old)
    before = listing(out)
    args = [a.format(out=out, games=games_file) for a in args]
    done = run_limited(CLI + args, 1000)
    assert done.returncode != 0, done.stdout
    assert "File too large" in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert listing(out) == before  # the target absent or unchanged, no temporary file
    # Without the limit the same command writes the whole file, and says where.
    done = run_limited(CLI + args, resource.RLIM_INFINITY)
    assert done.returncode == 0, done.stderr
    assert str(out / name) in done.stdout and list(listing(out)) == [name]
    assert (out / name).read_bytes() != old


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_folder_as_the_target_is_refused_clearly(tmp_path, games_file, command):
    out = tmp_path / "out"
    out.mkdir()
    args, name = COMMANDS[command]
    (out / name).mkdir()
    args = [a.format(out=out, games=games_file) for a in args]
    done = run_limited(CLI + args, resource.RLIM_INFINITY)
    assert done.returncode == 2
    assert f"{out / name} is a folder; expected the name of the" in done.stderr, done.stderr
    assert not any((out / name).iterdir()) and [p.name for p in out.iterdir()] == [name]


def test_pairs_names_the_file_it_writes(tmp_path, games_file):
    done = run_limited(CLI + ["pairs", str(games_file), "-o", str(tmp_path / "adir")], resource.RLIM_INFINITY)
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().endswith(f"written to {tmp_path / 'adir.npz'}") and (tmp_path / "adir.npz").is_file()


def test_play_save_on_a_full_disk_appends_nothing(tmp_path, games_file):
    # `stratego play --save` appends a game: on a full disk the file keeps its games,
    # whole, and the next game appends after them.
    saved = tmp_path / "saved.jsonl"
    saved.write_bytes(games_file.read_bytes())
    before = saved.read_bytes()
    args = CLI + ["play", "--seed", "3", "--save", str(saved)]
    done = run_limited(args, len(before) + 100, stdin="resign\n")
    assert done.returncode != 0 and "File too large" in done.stderr, done.stderr
    assert saved.read_bytes() == before and listing(tmp_path).keys() == {"games.jsonl", "saved.jsonl"}
    done = run_limited(args, resource.RLIM_INFINITY, stdin="resign\n")
    assert done.returncode == 0, done.stderr
    assert f"game saved to {saved} as game 3" in done.stdout
    assert len(read_jsonl(saved)) == 4


# The package's writers from Python, both games: (code writing TARGET, the target's name).
WRITERS = {
    "write_jsonl": ("write_jsonl([Game('classic', seed=s) for s in range(50)], TARGET)", "g.jsonl"),
    "RecordWriter append": ("""
        with RecordWriter(TARGET, append=True) as w:
            for s in range(50):
                w.write(Game('classic', seed=s))""", "g.jsonl"),
    "write_jsonl append": ("write_jsonl([Game('classic', seed=s) for s in range(50)], TARGET, append=True)",
                           "g.jsonl"),
    "write_record": ("write_record(Game('classic', seed=0), TARGET)", "g.xml"),
    "castle write_records": ("castle_records.write_records([CastleGame(seed=s) for s in range(50)], TARGET)",
                             "c.jsonl"),
    "castle write_records append": (
        "castle_records.write_records([CastleGame(seed=s) for s in range(50)], TARGET, append=True)", "c.jsonl"),
    "save_pairs": ("save_pairs(TARGET, {'a': np.arange(10000)}, compress=False)", "p.npz"),
    "write_dataset": ("write_dataset(TARGET, 200, num_envs=32)", "d.jsonl"),
    "write_file": ("write_file(TARGET, 'x' * 5000)", "f.txt"),
}
PRELUDE = """
import numpy as np
from stratego import Game
from stratego.common.atomic_write import write_file
from stratego.castle import Game as CastleGame, records as castle_records
from stratego.records.pairs import save_pairs
from stratego.records.dataset import write_dataset
from stratego.records import RecordWriter, write_jsonl, write_record
TARGET = {target!r}
"""


@pytest.mark.parametrize("old", [None, "existing"])
@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_a_writer_on_a_full_disk_leaves_the_target_as_it_was(tmp_path, writer, old):
    code, name = WRITERS[writer]
    target = tmp_path / name
    if old is not None:  # a file of one whole game of the target's kind
        if name == "c.jsonl":
            castle_records.write_records([stratego.castle.Game(seed=99)], target)
        elif name.endswith(".jsonl"):
            write_jsonl([stratego.Game("classic", seed=99)], target)
        else:
            target.write_bytes(b"old content\n")
    before = listing(tmp_path)
    limit = (target.stat().st_size if target.exists() else 0) + 200
    done = python_limited(PRELUDE.format(target=str(target)) + textwrap.dedent(code), limit)
    assert done.returncode != 0 and "File too large" in done.stderr, done.stderr
    assert listing(tmp_path) == before


def test_atomic_write_keeps_the_old_file_when_the_block_raises(tmp_path):
    target = tmp_path / "t.txt"
    target.write_text("old")
    os.chmod(target, 0o640)
    with pytest.raises(KeyError):
        with atomic_write(target) as out:
            out.write("new")
            raise KeyError("stop")
    assert target.read_text() == "old" and listing(tmp_path).keys() == {"t.txt"}
    write_file(target, "new")
    assert target.read_text() == "new" and (target.stat().st_mode & 0o777) == 0o640  # keeps its permissions
    with pytest.raises(FileNotFoundError, match=f"cannot write {tmp_path / 'no' / 't.txt'}: folder "):
        write_file(tmp_path / "no" / "t.txt", "x")
    # A link stays a link: the file it points to is written (and named).
    (tmp_path / "link.txt").symlink_to(target)
    assert write_file(tmp_path / "link.txt", "via link") == target
    assert (tmp_path / "link.txt").is_symlink() and target.read_text() == "via link"


def test_a_refused_record_appends_nothing(tmp_path):
    # A record the writer refuses half way through an append: the file as it was.
    path = tmp_path / "g.jsonl"
    write_jsonl([stratego.Game("classic", seed=0)], path)
    before = path.read_bytes()
    with pytest.raises(TypeError):
        write_jsonl([stratego.Game("classic", seed=1), "not a game"], path, append=True)
    assert path.read_bytes() == before
    with pytest.raises(TypeError):
        write_jsonl(["not a game"], tmp_path / "new.jsonl", append=True)
    assert not (tmp_path / "new.jsonl").exists()  # an append that made the file removes it


@pytest.mark.parametrize("game", ["classic", "castle"])
def test_a_torn_tail_is_refused_by_the_appender_and_reported_by_the_reader(tmp_path, game):
    path = tmp_path / "g.jsonl"
    if game == "classic":
        make = lambda seed: stratego.Game("classic", seed=seed)  # noqa: E731
        write, read = write_jsonl, lambda p: list(iter_jsonl(p))
    else:
        make = lambda seed: stratego.castle.Game(seed=seed)  # noqa: E731
        write, read = castle_records.write_records, lambda p: list(castle_records.iter_records(p))
    write([make(0), make(1)], path)
    whole = path.read_bytes()
    cut = whole.index(b"\n") + 1  # line 2 starts here: a crash wrote 30 of its bytes
    path.write_bytes(whole[:cut + 30])
    torn = path.read_bytes()
    with pytest.raises(TornTailError, match=rf"{path}: line 2 \(from byte {cut}\) has no newline at its end.*"
                                            rf"truncate -s {cut} {path}"):
        write([make(2)], path, append=True)
    assert path.read_bytes() == torn  # refused: nothing glued to the partial line
    with pytest.raises(RecordError, match=rf"{path}: line 2: the file ends in a partial line"):
        read(path)
    os.truncate(path, cut)  # the repair the message gives
    write([make(2)], path, append=True)
    assert len(read(path)) == 2


def test_line_appender_appends_whole_lines_only(tmp_path):
    with LineAppender(tmp_path / "l.txt") as out:
        with pytest.raises(ValueError, match="whole lines"):
            out.append("no newline")
        out.append("a\n")
    assert (tmp_path / "l.txt").read_text() == "a\n"
