"""The check that binds a pickled game's parts together, for both games' `Game`.

A pickle of a Game holds several parts (the state, the start, the moves, the settings)
that only make sense together: a pickle spliced from two games' parts would load as a
game whose history is not its position's. The writer adds a digest over every part; the
reader refuses the pickle if the digest does not match the parts it got (docs/api.md
"Saves"). It guards against mixing, not forgery: a pickle is trusted input anyway
(Python's pickle runs code). Pickles made before the check have none and load as before.
"""
from __future__ import annotations

import hashlib
import hmac
import json

#: The key of the digest in a pickle's state dict.
CHECK_KEY = "check"


def parts_digest(*parts) -> str:
    """A digest of the parts in order: each bytes as is, anything else as canonical JSON,
    each length-prefixed so that no two lists of parts give the same input."""
    digest = hashlib.blake2b(digest_size=16, person=b"stratego-pickle")
    for part in parts:
        data = bytes(part) if isinstance(part, (bytes, bytearray)) else \
            json.dumps(part, sort_keys=True, separators=(",", ":")).encode()
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return digest.hexdigest()


def check_digest(what: str, check, digest: str) -> None:
    """ValueError unless `check` (the pickle's) is `digest`, parts_digest of the parts
    the pickle holds. (A pickle made before the check has no CHECK_KEY: its reader does
    not call this.)"""
    if not isinstance(check, str) or not hmac.compare_digest(check, digest):
        raise ValueError(f"a pickled {what}'s parts do not belong together: its check does not match its state, "
                         "start and moves (parts of different pickles?); expected a pickle of one game as made")
