"""A plain-Python reference mover for the castle game (Jumbo's Stratego for 3/4 players).

Written from ../shared/CASTLE.md (section 1 [SEED], section 2, assumptions A1-A12) and
the notation, text format and decision structure of docs/castle.md, independent of the
C engine (csrc/castle/), and kept slow and obvious on purpose: perft counts and rule
tests compare the engine with it (tests/test_castle_perft.py, tests/test_castle_rules.py).

The board is parsed from the drawing of A1 (copied below; a test compares it with
CASTLE.md when that file is at hand). A node is named as in the notation: ``"G10"``
(column A..O, row 1..15, row 1 at the top), ``"ring"`` or ``"turret"``.

Decisions are strings in the canonical notation (docs/castle.md "Notation"):
``G10-G12`` a move to an empty node (a step, a Scout's line, a Captain's two steps:
``F8-H10`` through the ring), ``G10xH10`` a move ending in an attack, ``F8-F9 drop`` a
carrier leaving its flag behind, ``D8*ring`` a cannon shot, ``take e`` / ``leave`` after
ending on a lone flag, ``recruit 7`` / ``recruit none``. A move is named by its two end
nodes only: paths to the same node are one decision.

A turn is up to three decisions (docs/castle.md "A turn"): the move, then a take
decision by the mover if its piece ends, carrying no flag, where lone flags lie, then
one recruitment by the seat that earned it; ``State.phase`` says which is pending.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

# -- the board: A1's drawing (4 players); A2 derives the 3-player board from it --------

# [A1] n/e/s/w zones, R recruitment space, F flag start, ~ lake, O ring cell (the eight
# make one node), T turret, + a space next to the castle, . an ordinary space.
DRAWING_4P = """\
     A B C D E F G H I J K L M N O
  1          n n n F n n n
  2          n n n R n n n
  3          n n n n n n n
  4        . . . . . . . . .
  5  w w w . . . ~ ~ ~ . . . e e e
  6  w w w . . . + + + . . . e e e
  7  w w w . ~ + O O O + ~ . e e e
  8  F R w . ~ + O T O + ~ . e R F
  9  w w w . ~ + O O O + ~ . e e e
 10  w w w . . . + + + . . . e e e
 11  w w w . . . ~ ~ ~ . . . e e e
 12        . . . . . . . . .
 13          s s s s s s s
 14          s s s R s s s
 15          s s s F s s s
"""

COLUMNS = "ABCDEFGHIJKLMNO"
RING, TURRET = "ring", "turret"
CASTLE = (RING, TURRET)

# [A3] ranks and counts: Marshal 9 x1, General 8 x1, Major 7 x2, Captain 6 x3,
# Lieutenant 5 x3, Sergeant 4 x3, Scout 3 x4, Spy 2 x1, Cannon 1 x2.
MARSHAL, CAPTAIN, SCOUT, SPY, CANNON = 9, 6, 3, 2, 1
PIECE_COUNTS = {9: 1, 8: 1, 7: 2, 6: 3, 5: 3, 4: 3, 3: 4, 2: 1, 1: 2}
PIECES_PER_SEAT = sum(PIECE_COUNTS.values())  # 20

# [A9] the slider step at which its player recruits ("VI").
SLIDER_RECRUIT = 6

DIRECTIONS = ((0, -1), (1, 0), (0, 1), (-1, 0))  # (d_col, d_row): north, east, south, west


def parse_drawing(text: str) -> dict[tuple[int, int], str]:
    """{(col, row): symbol} of a drawing: a header line of column letters, then one line
    a row that starts with its number; each symbol sits under its column letter; a
    blank is off the board."""
    lines = [line for line in text.splitlines() if line.strip()]
    header = lines[0]
    columns = {header.index(letter): col for col, letter in enumerate(header.split())}
    cells = {}
    for line in lines[1:]:
        row = int(line.split()[0]) - 1
        for pos, col in columns.items():
            if pos < len(line) and line[pos] != " ":
                cells[(col, row)] = line[pos]
    return cells


def cell_name(col: int, row: int) -> str:
    return f"{COLUMNS[col]}{row + 1}"


def cell_of(name: str) -> tuple[int, int]:
    """(col, row) of a space name such as 'G10'; ValueError for anything else."""
    if len(name) < 2 or name[0] not in COLUMNS or not name[1:].isdigit():
        raise ValueError(f"{name!r} is not a space name (column A..O, row 1..15)")
    return COLUMNS.index(name[0]), int(name[1:]) - 1


@dataclass(frozen=True)
class Geometry:
    """Everything the rules need to know about one board."""

    seats: str                      # seat letters in clockwise order, seat i = seats[i]
    cells: dict                     # (col, row) -> drawing symbol, off-board cells absent
    spaces: tuple                   # ordinary space names, row-major (row 1 first)
    neighbours: dict                # node -> tuple of adjacent nodes (ring and turret included)
    zones: dict                     # seat -> frozenset of its zone's spaces (R and F included)
    recruit_space: dict             # seat -> R space
    flag_space: dict                # seat -> F space

    @property
    def nodes(self) -> tuple:
        return self.spaces + CASTLE

    def symbol(self, col: int, row: int) -> str | None:
        return self.cells.get((col, row))

    def is_space(self, col: int, row: int) -> bool:
        return self.symbol(col, row) not in (None, "~", "O", "T")


def build_geometry(players: int) -> Geometry:
    cells = parse_drawing(DRAWING_4P)
    if players == 3:
        # [A2] the 3-player board: A1 without rows 13-15, G10-I10 made lake.
        cells = {(c, r): s for (c, r), s in cells.items() if r < 12}
        for col in "GHI":
            cells[(COLUMNS.index(col), 9)] = "~"
        seats = "new"
    elif players == 4:
        seats = "nesw"
    else:
        raise ValueError(f"players must be 3 or 4, got {players}")
    space_symbols = set(".+nesw") | {"F", "R"}
    spaces = tuple(cell_name(c, r) for r in range(15) for c in range(15)
                   if cells.get((c, r)) in space_symbols)
    neighbours: dict[str, list[str]] = {name: [] for name in spaces + CASTLE}
    for name in spaces:
        col, row = cell_of(name)
        for dc, dr in DIRECTIONS:
            other = cells.get((col + dc, row + dr))
            if other in space_symbols:
                neighbours[name].append(cell_name(col + dc, row + dr))
            elif other == "O" and RING not in neighbours[name]:
                # [SEED] 5, [A4]: the ring is one space next to every space touching it.
                neighbours[name].append(RING)
                neighbours[RING].append(name)
    # [A4] the turret touches only the ring.
    neighbours[RING].append(TURRET)
    neighbours[TURRET].append(RING)
    zones, recruit, flag = {}, {}, {}
    for seat in seats:
        zone = {cell_name(c, r) for (c, r), s in cells.items() if s == seat}
        # R and F belong to the zone whose letters surround them.
        for (c, r), s in cells.items():
            if s in "RF" and any(cells.get((c + dc, r + dr)) == seat for dc, dr in DIRECTIONS):
                zone.add(cell_name(c, r))
                (recruit if s == "R" else flag)[seat] = cell_name(c, r)
        zones[seat] = frozenset(zone)
    return Geometry(seats, cells, spaces, {k: tuple(v) for k, v in neighbours.items()},
                    zones, recruit, flag)


GEOMETRY = {4: build_geometry(4), 3: build_geometry(3)}

# -- settings --------------------------------------------------------------------------

MODES = {"ffa4": 4, "teams4": 4, "ffa3": 3}


@dataclass(frozen=True)
class Settings:
    """The mode and the A-choices, named as in docs/castle.md "Settings and variant files"."""

    mode: str = "ffa4"
    first_seat: int = 0                   # [SEED] 2: the youngest player starts
    cannon_over_lakes: bool = True        # [A7] shots pass over lakes
    flag_recruit_owner: bool = False      # [A9] case 2: the flag's owner recruits, not the capturer
    scout_line_attack: bool = True        # [A5] a Scout line may end with an attack
    recruit_public: bool = True           # [A9] the recruited rank is shown to all
    back_and_forth: int = 5               # [A10] moves in a row between the same two nodes
    abandon: bool = True                  # [A8] a carrier may leave its flag behind
    max_plies: int = 3000                 # [A11] decisions before a draw; 0 = no cap

    def __post_init__(self):
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {sorted(MODES)}, got {self.mode!r}")
        if not 0 <= self.first_seat < MODES[self.mode]:
            raise ValueError(f"first_seat must be below {MODES[self.mode]}, got {self.first_seat}")

    @property
    def players(self) -> int:
        return MODES[self.mode]

    @property
    def geometry(self) -> Geometry:
        return GEOMETRY[self.players]

    def friends(self, a: int, b: int) -> bool:
        """Own or partner: [SEED] 15, [A6] teammates are never targets."""
        return a == b or (self.mode == "teams4" and (a - b) % 2 == 0)


# -- the state -------------------------------------------------------------------------


@dataclass(frozen=True)
class Piece:
    seat: int
    rank: int
    pid: int                     # identity, for the back-and-forth count of [A10]
    flag: int | None = None      # the seat whose flag it carries ([A8] at most one)
    shown: bool = False          # rank seen by all ([A6] fights, [A7] shots, [A9] recruits)


@dataclass
class State:
    settings: Settings
    board: dict                                  # node -> Piece (absent: no piece)
    lone: dict                                   # node -> list of (flag seat, abandoned)
    sliders: list
    removed: list                                # per seat: sorted list of removed ranks
    to_move: int
    phase: str = "move"                          # "move", "take", "recruit", "over"
    pending: tuple = ()                          # take: (node,); recruit: (seat, mover)
    chances: list = field(default_factory=list)  # recruitment chances this turn: (case, seat)
    repeat: list = field(default_factory=list)   # per seat: (pid, its node, other node, count)
    plies: int = 0
    next_pid: int = 0
    winners: tuple = ()                          # seats that won; () with phase "over" = draw
    end_reason: str | None = None                # "turret", "stuck", "cap"

    def copy(self) -> State:
        return replace(self, board=dict(self.board), lone={k: list(v) for k, v in self.lone.items()},
                       sliders=list(self.sliders), removed=[list(r) for r in self.removed],
                       chances=list(self.chances), repeat=list(self.repeat))

    @property
    def geometry(self) -> Geometry:
        return self.settings.geometry

    @property
    def seats(self) -> str:
        return self.geometry.seats

    @property
    def done(self) -> bool:
        return self.phase == "over"


def new_state(settings: Settings) -> State:
    n = settings.players
    return State(settings, {}, {}, [0] * n, [[] for _ in range(n)], settings.first_seat,
                 repeat=[None] * n)


def new_piece(state: State, seat: int, rank: int, flag=None, shown=False) -> Piece:
    state.next_pid += 1
    return Piece(seat, rank, state.next_pid, flag, shown)


def start(settings: Settings, setups: dict) -> State:
    """The start position: ``setups`` maps each seat letter to {space: rank} over its zone.

    [SEED] 3, [A1]: each player fills his zone, one piece a space, the recruitment space
    empty; the flag goes onto the piece on the flag start space."""
    state = new_state(settings)
    geo = settings.geometry
    if sorted(setups) != sorted(geo.seats):
        raise ValueError(f"setups for seats {sorted(setups)}, expected {sorted(geo.seats)}")
    for letter, placement in setups.items():
        seat = geo.seats.index(letter)
        free = geo.zones[letter] - {geo.recruit_space[letter]}
        if set(placement) != free:
            raise ValueError(f"seat {letter}: a setup fills the 20 spaces of its zone but R")
        counts = {}
        for rank in placement.values():
            counts[rank] = counts.get(rank, 0) + 1
        if counts != PIECE_COUNTS:
            raise ValueError(f"seat {letter}: pieces {counts}, expected {PIECE_COUNTS}")
        for node, rank in sorted(placement.items()):
            state.board[node] = new_piece(state, seat, rank, seat if node == geo.flag_space[letter] else None)
    return begin_turn(state, (settings.first_seat - 1) % settings.players)


# -- legal decisions -------------------------------------------------------------------


def legal(state: State) -> list[str]:
    """Every legal decision of the seat to decide, in the canonical notation."""
    if state.phase == "over":
        return []
    if state.phase == "take":
        (node,) = state.pending
        letters = sorted({state.seats[f] for f, _ in state.lone[node]})
        return [f"take {x}" for x in letters] + ["leave"]
    if state.phase == "recruit":
        seat, _ = state.pending
        return [f"recruit {r}" for r in sorted(set(state.removed[seat]), reverse=True)] + ["recruit none"]
    return list(moves(state, state.to_move))


def moves(state: State, seat: int) -> dict:
    """{notation: action} of every legal move (or shot) of ``seat``. A move is named by
    its two end nodes (docs/castle.md "Notation"): paths to the same node are one
    decision."""
    out: dict[str, tuple] = {}
    for node, piece in list(state.board.items()):
        if piece.seat != seat:
            continue
        for text, action in piece_moves(state, node, piece):
            if action[0] == "move" and repeats_too_often(state, piece, node, action[1][-1]):
                continue
            out.setdefault(text, action)
    return out


def piece_moves(state: State, src: str, piece: Piece):
    """(notation, action) of one piece's moves; an action is ("move", path, attack,
    drop) or ("shot", src, target)."""
    geo, s = state.geometry, state.settings
    board = state.board

    def enemy(node):
        other = board.get(node)
        return other is not None and not s.friends(piece.seat, other.seat)

    one_step = []
    for dst in geo.neighbours[src]:
        if dst not in board:
            one_step.append((f"{src}-{dst}", ("move", (src, dst), False, False)))
        elif enemy(dst) and piece.rank != CANNON:
            # [A6] a cannon never attacks an adjacent piece; every other piece may.
            one_step.append((f"{src}x{dst}", ("move", (src, dst), True, False)))
    if piece.flag is not None:
        # [SEED] 11, [A5]: a carrier, whatever its rank, moves one space; [A8] it may
        # leave the flag behind on the space it leaves (docs/castle.md: only onto an
        # empty node, and only with the setting `abandon`).
        yield from one_step
        if state.settings.abandon:
            for text, (_, path, attack, _) in one_step:
                if not attack:
                    yield f"{text} drop", ("move", path, False, True)
    else:
        yield from one_step
        if piece.rank == SCOUT:
            yield from scout_lines(state, src, piece)
        if piece.rank == CAPTAIN:
            yield from captain_paths(state, src, piece)
    if piece.rank == CANNON:
        yield from cannon_shots(state, src, piece)


def scout_lines(state: State, src: str, piece: Piece):
    """[SEED] 8, [A5]: any number of empty ordinary spaces in a straight line (lakes and
    the castle end it; it enters the ring by a single step, listed with the steps); the
    first piece on the line may be attacked at its end if it is a rival's (a setting)."""
    if src in CASTLE:
        return
    geo, board = state.geometry, state.board
    col, row = cell_of(src)
    for dc, dr in DIRECTIONS:
        for dist in range(1, 15):
            c, r = col + dc * dist, row + dr * dist
            if not geo.is_space(c, r):
                break
            dst = cell_name(c, r)
            other = board.get(dst)
            if other is None:
                if dist > 1:
                    yield f"{src}-{dst}", ("move", (src, dst), False, False)
                continue
            if dist > 1 and state.settings.scout_line_attack and not state.settings.friends(piece.seat, other.seat):
                yield f"{src}x{dst}", ("move", (src, dst), True, False)
            break


def captain_paths(state: State, src: str, piece: Piece):
    """[SEED] 7, [A5]: a Captain moves up to two spaces and may turn after the first; the
    first must be empty (also the ring: he passes through it); the second may be empty
    or a rival he attacks; never back to where he started. Named by the end nodes
    ("F8-H10" through the ring), like a step to the same node."""
    geo, board, s = state.geometry, state.board, state.settings
    for mid in geo.neighbours[src]:
        if mid in board:
            continue
        for dst in geo.neighbours[mid]:
            if dst == src:
                continue
            other = board.get(dst)
            if other is None:
                yield f"{src}-{dst}", ("move", (src, mid, dst), False, False)
            elif not s.friends(piece.seat, other.seat):
                yield f"{src}x{dst}", ("move", (src, mid, dst), True, False)


def cannon_shots(state: State, src: str, piece: Piece):
    """[SEED] 10, [A7]: a rival exactly three spaces away in a straight line; the two
    spaces between hold no piece and are no castle cell; lakes between do not block
    (a setting); a ring cell is a target (the ring), the turret never; no shot from the
    castle."""
    if src in CASTLE:
        return
    geo, board, s = state.geometry, state.board, state.settings
    col, row = cell_of(src)
    for dc, dr in DIRECTIONS:
        between = [geo.symbol(col + dc * k, row + dr * k) for k in (1, 2)]
        if any(sym is None or sym in "OT" for sym in between):
            continue
        if not s.cannon_over_lakes and "~" in between:
            continue
        if any(sym != "~" and cell_name(col + dc * k, row + dr * k) in board
               for k, sym in zip((1, 2), between)):
            continue
        c, r = col + dc * 3, row + dr * 3
        sym = geo.symbol(c, r)
        if sym is None or sym in ("~", "T"):
            continue
        target = RING if sym == "O" else cell_name(c, r)
        other = board.get(target)
        if other is not None and not s.friends(piece.seat, other.seat):
            yield f"{src}*{target}", ("shot", src, target)


def repeats_too_often(state: State, piece: Piece, src: str, dst: str) -> bool:
    """[SEED] 5, [A10]: no piece moves more than `back_and_forth` times in a row between
    the same two spaces (counting its player's moves only)."""
    return continued_count(state, piece, src, dst) > state.settings.back_and_forth


def continued_count(state: State, piece: Piece, src: str, dst: str) -> int:
    """How many moves in a row between src and dst the piece has made with this one:
    the run goes on if its player's last move was this piece's, between the same two
    spaces; any other move of the player starts again at 1."""
    record = state.repeat[piece.seat]
    if record is not None and record[:3] == (piece.pid, src, dst):
        return record[3] + 1
    return 1


# -- playing ---------------------------------------------------------------------------


def play(state: State, text: str) -> State:
    """The state after the legal decision ``text`` (ValueError if it is not legal)."""
    options = legal(state)
    if text not in options:
        raise ValueError(f"{text!r} is not legal here; legal: {options}")
    new = state.copy()
    new.plies += 1
    if state.phase == "take":
        new = decide_take(new, text)
    elif state.phase == "recruit":
        new = decide_recruit(new, text)
    else:
        action = moves(state, state.to_move)[text]
        new = shoot(new, action[1], action[2]) if action[0] == "shot" else move(new, *action[1:])
    # docs/castle.md: every decision counts towards the ply cap, a draw by rule.
    if not new.done and new.settings.max_plies and new.plies >= new.settings.max_plies:
        return finish(new, (), "cap")
    return new


def remove(state: State, node: str, flag_node: str) -> None:
    """Take the piece on ``node`` off the board into its owner's removed pile; a flag it
    carried stays alone on ``flag_node`` ([A8])."""
    piece = state.board.pop(node)
    state.removed[piece.seat].append(piece.rank)
    state.removed[piece.seat].sort(reverse=True)
    if piece.flag is not None:
        state.lone.setdefault(flag_node, []).append((piece.flag, False))


def fight(attacker: int, defender: int) -> str:
    """[SEED] 6, 9, 10, [A6]: 'attacker', 'defender' or 'both'. The Spy beats the
    Marshal only attacking; an attacked cannon is rank 1; equal ranks remove both."""
    if attacker == SPY and defender == MARSHAL:
        return "attacker"
    if attacker > defender:
        return "attacker"
    return "defender" if attacker < defender else "both"


def move(state: State, path: tuple, attack: bool, drop: bool) -> State:
    seat = state.to_move
    src, dst = path[0], path[-1]
    piece = state.board.pop(src)
    # [A10] from dst, the piece's next move back to src continues the run.
    state.repeat[seat] = (piece.pid, dst, src, continued_count(state, piece, src, dst))
    if drop:
        # [A8] the carrier leaves its flag on the space it leaves, abandoned on purpose.
        state.lone.setdefault(src, []).append((piece.flag, True))
        piece = replace(piece, flag=None)
    if not attack:
        state.board[dst] = piece
        return after_move(state, seat, dst, piece, None)
    defender = state.board[dst]
    outcome = fight(piece.rank, defender.rank)
    # [SEED] 6, [A6]: both ranks are shown to all.
    piece, defender = replace(piece, shown=True), replace(defender, shown=True)
    state.board[dst] = defender
    if outcome == "defender":
        state.board[src] = piece
        remove(state, src, src)
        slider_step(state, defender.seat)
        return end_turn(state, seat)
    if outcome == "both":
        # [SEED] 6: equal ranks remove both; [A9] no slider step; [A8] flags stay alone.
        state.board[src] = piece
        remove(state, src, src)
        remove(state, dst, dst)
        return end_turn(state, seat)
    # The attacker wins and takes the defender's space ([SEED] 6).
    captured = defender.flag
    state.board[dst] = replace(defender, flag=None)
    remove(state, dst, dst)
    if captured is not None and piece.flag is None:
        # [A8] the winner takes the carrier's flag at once if it carries none.
        piece = replace(piece, flag=captured)
    elif captured is not None:
        state.lone.setdefault(dst, []).append((captured, False))
    state.board[dst] = piece
    slider_step(state, seat)
    if captured is not None and piece.flag == captured:
        flag_chance(state, seat, captured)
    return after_move(state, seat, dst, piece, captured)


def after_move(state: State, seat: int, dst: str, piece: Piece, captured) -> State:
    # [SEED] 13, [A4]: moving an own piece carrying its own flag onto the turret wins;
    # the flag must be carried into the turret (a flag won there, in the fight or by a
    # take decision, is not: docs/castle.md "Where CASTLE.md is silent").
    if dst == TURRET and piece.flag == seat and captured != seat:
        return finish(state, win_for(state, seat), "turret")
    # [SEED] 11, [A8]: a piece that ends on a lone flag, carrying none, may take it.
    if piece.flag is None and state.lone.get(dst):
        state.phase, state.pending = "take", (dst,)
        return state
    return end_turn(state, seat)


def flag_chance(state: State, seat: int, flag: int) -> None:
    """[SEED] 12 (2), [A9]: taking a rival flag (not own, not a partner's) by beating its
    carrier, or picking up one abandoned on purpose, earns a recruitment for the
    capturer (or, as a setting, for the flag's owner)."""
    if state.settings.friends(seat, flag):
        return
    state.chances.append(("flag", flag if state.settings.flag_recruit_owner else seat))


def slider_step(state: State, seat: int) -> None:
    """[SEED] 6, 12 (1), [A9]: the winner's slider moves up one; at VI its player may
    recruit and the slider returns to 0."""
    state.sliders[seat] += 1
    if state.sliders[seat] >= SLIDER_RECRUIT:
        state.sliders[seat] = 0
        state.chances.append(("slider", seat))


def shoot(state: State, src: str, target: str) -> State:
    """[SEED] 10, [A7]: both the target and the cannon are removed; flags stay alone;
    [A9] the cannon's owner moves its slider up."""
    seat = state.to_move
    state.repeat[seat] = None  # [A10] another piece acted: the count starts again
    state.board[src] = replace(state.board[src], shown=True)
    state.board[target] = replace(state.board[target], shown=True)
    remove(state, target, target)
    remove(state, src, src)
    slider_step(state, seat)
    return end_turn(state, seat)


def decide_take(state: State, text: str) -> State:
    (node,) = state.pending
    seat = state.to_move
    if text != "leave":
        flag = state.seats.index(text.split()[1])
        lone = state.lone[node]
        # A flag abandoned on purpose is taken before one that was not: the one choice
        # "take x" picks up x's flag, and the abandoned one is what earns a recruitment.
        entry = max((e for e in lone if e[0] == flag), key=lambda e: e[1])
        lone.remove(entry)
        if not lone:
            del state.lone[node]
        state.board[node] = replace(state.board[node], flag=flag)
        if entry[1]:
            flag_chance(state, seat, flag)
    return end_turn(state, seat)


def decide_recruit(state: State, text: str) -> State:
    seat, mover = state.pending
    if text != "recruit none":
        rank = int(text.split()[1])
        state.removed[seat].remove(rank)
        # [SEED] 12, [A9]: the piece returns on its player's recruitment space.
        state.board[state.geometry.recruit_space[state.seats[seat]]] = new_piece(
            state, seat, rank, None, state.settings.recruit_public)
    state.chances = []
    return begin_turn(state, mover)


def end_turn(state: State, mover: int) -> State:
    """After the mover's move (and pick-up choice): at most one recruitment ([A9], the
    flag case first, a second chance lost), then play goes on clockwise."""
    chances, state.chances = state.chances, []
    state.phase, state.pending = "move", ()
    if chances:
        # The flag case first; a second chance is lost (its slider has gone back to 0).
        _, seat = min(chances, key=lambda chance: chance[0] != "flag")
        space = state.geometry.recruit_space[state.seats[seat]]
        # [SEED] 12: an occupied recruitment space (or nothing to recruit) loses the chance.
        if space not in state.board and state.removed[seat]:
            state.phase, state.pending, state.to_move = "recruit", (seat, mover), seat
            return state
    return begin_turn(state, mover)


def begin_turn(state: State, mover: int) -> State:
    """[A11] the next seat clockwise from the mover that has a legal move; nobody (the
    mover included) -> a draw; the move cap -> a draw."""
    n = state.settings.players
    state.phase, state.pending = "move", ()
    for k in range(1, n + 1):
        seat = (mover + k) % n
        if moves(state, seat):
            state.to_move = seat
            return state
    return finish(state, (), "stuck")


def win_for(state: State, seat: int) -> tuple:
    """[SEED] 15, [A11]: a team wins together."""
    if state.settings.mode == "teams4":
        return tuple(sorted((seat, (seat + 2) % 4)))
    return (seat,)


def finish(state: State, winners: tuple, reason: str) -> State:
    state.phase, state.pending, state.winners, state.end_reason = "over", (), winners, reason
    return state


def perft(state: State, depth: int) -> int:
    """Number of decision sequences of exactly ``depth`` decisions (a finished game has
    none)."""
    if depth == 0:
        return 1
    options = legal(state)
    if depth == 1:
        return len(options)
    return sum(perft(play(state, text), depth - 1) for text in options)


# -- setups and random play (for perft positions) ---------------------------------------


def frame(seat_letter: str, col: int, row: int) -> tuple[int, int]:
    """(col, row) turned so that the seat's zone is at the bottom, as s sees the board."""
    if seat_letter == "n":
        return 14 - col, 14 - row
    if seat_letter == "e":
        return 14 - row, col
    if seat_letter == "w":
        return row, 14 - col
    return col, row


def zone_order(geo: Geometry, letter: str) -> list[str]:
    """The 20 setup spaces of a zone as its player sees them: back row first, each row
    left to right."""
    def key(name):
        col, row = frame(letter, *cell_of(name))
        return -row, col

    return sorted(geo.zones[letter] - {geo.recruit_space[letter]}, key=key)


def random_setup(geo: Geometry, letter: str, rng) -> dict:
    """A setup drawn with ``rng`` (random.Random): the 20 pieces shuffled over the zone."""
    ranks = [rank for rank, count in sorted(PIECE_COUNTS.items()) for _ in range(count)]
    rng.shuffle(ranks)
    return dict(zip(zone_order(geo, letter), ranks))


# -- the text board (docs/castle.md "Text board") --------------------------------------


def piece_token(state: State, piece: Piece, viewer: int | None) -> str:
    """'n9'; 'N9' when every seat knows the rank; 'n9e' carrying e's flag; 'n?' a rank
    the viewer does not know ([A12])."""
    letter = state.seats[piece.seat]
    flag = "" if piece.flag is None else state.seats[piece.flag]
    if piece.shown:
        return f"{letter.upper()}{piece.rank}{flag}"
    if viewer is not None and viewer != piece.seat:
        return f"{letter}?{flag}"
    return f"{letter}{piece.rank}{flag}"


def to_text(state: State, viewer: int | None = None) -> str:
    """The position as text: the whole board (viewer None) or as one seat sees it."""
    seats, geo = state.seats, state.geometry
    lines = [f"mode: {state.settings.mode}"]
    if not state.done:
        lines += [f"to_move: {seats[state.to_move]}", f"phase: {state.phase}"]
    lines.append(f"ply: {state.plies}")
    lines.append("sliders: " + " ".join(f"{x}={state.sliders[i]}" for i, x in enumerate(seats)))
    lines.append("removed: " + " ".join(
        f"{x}=" + ",".join(str(r) for r in state.removed[i]) for i, x in enumerate(seats)))
    lone = [f"{seats[flag]}@{node}{'!' if abandoned else ''}"
            for node in geo.nodes for flag, abandoned in sorted(state.lone.get(node, ()))]
    lines.append("lone: " + " ".join(lone))
    repeat = [f"{seats[i]}={r[1]}:{r[2]}:{r[3]}" for i, r in enumerate(state.repeat) if r is not None
              and state.board.get(r[1]) is not None and state.board[r[1]].pid == r[0]]
    if repeat:
        lines.append("repeat: " + " ".join(repeat))
    for node in CASTLE:
        piece = state.board.get(node)
        lines.append(f"{node}: " + ("." if piece is None else piece_token(state, piece, viewer)))
    if state.done:
        if state.winners:
            who = " ".join(seats[w] for w in state.winners)
            lines.append(f"result: {who} {'wins' if len(state.winners) == 1 else 'win'} ({state.end_reason})")
        else:
            lines.append(f"result: draw ({state.end_reason})")
    lines.append("    " + "   ".join(COLUMNS))
    for row in range(geo_rows(geo)):
        cells = []
        for col in range(15):
            sym = geo.symbol(col, row)
            if sym is None:
                cells.append("-")
            elif sym in "~OT":
                cells.append(sym)
            else:
                piece = state.board.get(cell_name(col, row))
                cells.append("." if piece is None else piece_token(state, piece, viewer))
        lines.append(f"{row + 1:>2}  " + " ".join(c.ljust(3) for c in cells).rstrip())
    return "\n".join(lines) + "\n"


def geo_rows(geo: Geometry) -> int:
    return 1 + max(row for _, row in geo.cells)


def from_text(text: str, settings: Settings | None = None) -> State:
    """A position from its full-board text in the move phase (docs/castle.md "Text
    board"); ``settings`` gives the A-choices and must agree with the text's mode.
    Removed piles are the pieces missing from the board; lower-case pieces are known to
    their owner only, upper-case ones to all."""
    lines = [line for line in text.splitlines() if line.strip()]
    header = {}
    while lines and ":" in lines[0]:
        key, _, value = lines.pop(0).partition(":")
        header[key.strip()] = value.strip()
    settings = settings or Settings(mode=header.get("mode", "ffa4"))
    if header.get("mode", settings.mode) != settings.mode:
        raise ValueError(f"mode {header['mode']!r} in the text, {settings.mode!r} in the settings")
    state = new_state(settings)
    seats, geo = state.seats, state.geometry

    def seat_of(letter):
        if letter not in seats:
            raise ValueError(f"seat letter {letter!r} not one of {seats!r}")
        return seats.index(letter)

    def piece_of(token):
        seat, rest = seat_of(token[0].lower()), token[1:]
        flag = None
        if rest and rest[-1] in seats:
            rest, flag = rest[:-1], seat_of(rest[-1])
        if not rest.isdigit() or int(rest) not in PIECE_COUNTS:
            raise ValueError(f"bad piece {token!r}")
        return new_piece(state, seat, int(rest), flag, token[0].isupper())

    for node in CASTLE:
        if header.get(node, ".") != ".":
            state.board[node] = piece_of(header[node])
    grid = [line.split() for line in lines if line.split()[0].isdigit()]
    for cells in grid:
        row = int(cells[0]) - 1
        for col, token in enumerate(cells[1:]):
            sym = geo.symbol(col, row)
            if sym is None or sym in "~OT":
                if token != (sym or "-"):
                    raise ValueError(f"{cell_name(col, row)}: expected {sym or '-'!r}, got {token!r}")
            elif token != ".":
                state.board[cell_name(col, row)] = piece_of(token)
    for i, letter in enumerate(seats):
        on_board = [p.rank for p in state.board.values() if p.seat == i]
        state.removed[i] = sorted((rank for rank, count in PIECE_COUNTS.items()
                                   for _ in range(count - on_board.count(rank))), reverse=True)
    for item in header.get("sliders", "").split():
        letter, _, value = item.partition("=")
        state.sliders[seat_of(letter)] = int(value)
    for item in header.get("lone", "").split():
        letter, _, node = item.partition("@")
        abandoned = node.endswith("!")
        node = node.rstrip("!")
        if node not in geo.nodes:
            raise ValueError(f"lone flag on {node!r}, not a node")
        state.lone.setdefault(node, []).append((seat_of(letter), abandoned))
    for item in header.get("repeat", "").split():
        letter, _, value = item.partition("=")
        at, other, count = value.split(":")
        state.repeat[seat_of(letter)] = (state.board[at].pid, at, other, int(count))
    state.plies = int(header.get("ply", 0))
    mover = seat_of(header.get("to_move", seats[settings.first_seat]))
    # docs/castle.md: a seat to move without a legal move passes as in play.
    return begin_turn(state, (mover - 1) % settings.players)
