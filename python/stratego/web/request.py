"""What the games `stratego serve` plays share (session.py's classic games, castle.py's):
a game's id size and the refusal of a request, with the HTTP status to answer."""
from __future__ import annotations

# Random bytes of a game id (secrets.token_urlsafe): 24 bytes, 32 characters.
ID_BYTES = 24


class RequestError(ValueError):
    """A request the game refuses: `status` is the HTTP status to answer with (400 a bad
    request, 404 no such game, 409 not now: not your turn, the game is over)."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
