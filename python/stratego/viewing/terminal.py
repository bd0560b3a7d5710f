"""Games in a terminal: `stratego play` (a person against a bot, from the person's own
view) and `stratego replay` (a recorded game stepped through, from any perspective).

Both read typed lines (a pseudo-terminal drives them in tests/test_terminal.py) and
print boards as Game.render does; neither shows a player more than its view.
"""
from __future__ import annotations

from typing import Callable

from ..game import Game
from .render import PLAYER_NAMES, format_board, parse_perspective
from .viewer import VIEWS, ViewFrames, check_view, game_frames, move_label, result_text

PLAY_HELP = """Type a move as two squares, "B4-B5" (an attack is written the same way;
row 10 is "10" or ":"), a rescue "6@F4" or "pass" when asked for one, or:
  moves   your legal moves       board   the board again
  resign  give up the game       draw    offer a draw
  help    this text              quit    stop without a result"""

REPLAY_HELP = """Enter (or "n") the next move, "p" the one before, a number that move,
"s" the start, "e" the end, "v full|red|blue" another view, "q" to quit."""


def captured_text(captured: dict) -> str:
    """A frame's captured pieces (viewer.game_frames) as one line."""
    lines = []
    for side, name in zip("rb", PLAYER_NAMES):
        lost = captured[side]
        text = " ".join(lost["ranks"]) or "nothing"
        if lost["unknown"]:
            text += f" and {lost['unknown']} unidentified"
        lines.append(f"{name} lost: {text}")
    return "; ".join(lines)


def play_game(game: Game, human: int, bot: str, read: Callable[[str], str] = input,
              write: Callable[[str], None] = print) -> int:
    """Plays `game` with a person as `human` (0 red, 1 blue) against bot `bot`, reading
    the person's lines with `read` and printing with `write`. Returns 0 when the game
    ends, resigned or not, and 1 if the person quits first (or the input ends, or Ctrl-C
    interrupts it: the game is left as it stands)."""
    try:
        return _play(game, human, bot, read, write)
    except KeyboardInterrupt:
        write("\nInterrupted: the game is left unfinished.")
        return 1


def _play(game: Game, human: int, bot: str, read: Callable[[str], str], write: Callable[[str], None]) -> int:
    you, them = PLAYER_NAMES[human], PLAYER_NAMES[1 - human]
    # What the person sees: frames of its own view (viewer.ViewFrames), captures included.
    frames = ViewFrames(("red", "blue")[human], game)
    write(f"You play {you} against the {bot} bot. Type 'help' for the commands.")
    show = True
    while not game.done:
        if game.to_move != human:
            action = game.bot_move(bot)
            write(f"{them} plays {_label(game, action, human)}")
            game.play(action)
            show = True
            continue
        if show:
            frames.add(game, None, None, None)
            write(format_board(frames.frames[-1]["board"].split(" "), human))
            write(captured_text(frames.frames[-1]["captured"]))
            show = False
        prompt = f"{you} to move{' (rescue: a rank@square, or pass)' if game.rescue_pending else ''}> "
        try:
            line = read(prompt).strip()
        except EOFError:
            write("\nInput ended: the game is left unfinished.")
            return 1
        command = line.lower()
        if not line:
            continue
        if command in ("quit", "exit", "q"):
            write("Game left unfinished.")
            return 1
        if command == "help":
            write(PLAY_HELP)
        elif command == "moves":
            write(" ".join(game.legal_moves()))
        elif command == "board":
            show = True
        elif command == "resign":
            game.resign(human)
        elif command == "draw":
            if bot_accepts_draw(game, human):
                write(f"The {bot} bot accepts the draw.")
                game.agree_draw()
            else:
                write(f"The {bot} bot declines: it has no fewer pieces on the board than you.")
        else:
            try:
                label = _label(game, line, human)
            except (ValueError, TypeError) as exc:
                write(f"{exc}. Type 'moves' for your legal moves, 'help' for the commands.")
                continue
            game.play(line)
            write(f"You play {label}")
            show = True
    write(game.render(human))
    write(f"Game over. {result_text(game)}.")
    return 0


def bot_accepts_draw(game: Game, human: int) -> bool:
    """A bot takes a draw when it has fewer pieces on the board than the person: a count
    both players see (its view's tokens), no hidden rank."""
    tokens = game._tokens(1 - human)
    mine = sum(t[0] == "rb"[1 - human] for t in tokens)
    return mine < sum(t[0] == "rb"[human] for t in tokens)


def _label(game: Game, move, viewer: int) -> str:
    """A move of the player to move as `viewer` will see it (viewer.move_label); raises
    ValueError as Game.play does for an illegal or malformed move, playing nothing."""
    after = game.clone()
    mover, rescue = after.to_move, after.rescue_pending
    after.play(move)
    return move_label(after, move, mover, rescue, viewer)


def replay_game(game: Game, *, perspective: str = "full", read: Callable[[str], str] = input,
                write: Callable[[str], None] = print) -> int:
    """Steps through `game`'s history from `perspective` ("full", "red" or "blue"; "v
    NAME" switches while it runs), reading commands with `read`."""
    check_view(perspective)
    frames = game_frames(game, VIEWS)
    result = result_text(game)
    last = len(game.history)
    ply, view = 0, perspective
    write(f"{last} moves. {result}. {REPLAY_HELP}")
    while True:
        frame = frames[view][ply]
        write(format_board(frame["board"].split(" "), parse_perspective(view)))
        status = f"Move {ply} of {last}"
        if ply:
            status += f": {PLAYER_NAMES['rb'.index(frame['mover'])]} {frame['move']}"
        status += f". {result}." if ply == last else f". {PLAYER_NAMES['rb'.index(frame['to_move'])]} to move."
        write(status)
        write(captured_text(frame["captured"]))
        while True:
            try:
                command = read(f"[{view}] move {ply}> ").strip().lower()
            except (EOFError, KeyboardInterrupt):  # the input ends, or Ctrl-C: stop, as "q"
                write("")
                return 0
            if command in ("", "n", "next"):
                target = ply + 1
            elif command in ("p", "prev", "back"):
                target = ply - 1
            elif command in ("s", "start"):
                target = 0
            elif command in ("e", "end"):
                target = last
            elif command in ("q", "quit", "exit"):
                return 0
            elif command.isdigit():
                target = int(command)
            elif command.startswith("v ") and command[2:].strip() in VIEWS:
                view, target = command[2:].strip(), ply
            elif command in ("h", "help"):
                write(REPLAY_HELP)
                continue
            else:
                write(f"unknown command {command!r}. {REPLAY_HELP}")
                continue
            if not 0 <= target <= last:
                write(f"no move {target}: the game has moves 0 to {last}")
                continue
            ply = target
            break
