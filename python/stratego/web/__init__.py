"""`stratego serve`: play against the bots and saved policies in a browser (docs/playing.md).

A local web app: Starlette behind uvicorn (the `web` extra), a page of plain HTML, CSS
and JavaScript shipped in this package (static/, no network, no build step), and a
JSON API over single games (stratego.web.session) in which every message is built from
the person's own view.
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

#: Where `stratego serve` listens unless told otherwise: this machine only.
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def load_policies(paths: list[str], trust: bool = False) -> dict:
    """Policy files (stratego.agents.policy_file) by name: each file's stem, made unique (and
    apart from the bots' names). `trust` lets a file import the network module it names
    (stratego.agents.policy_file, "Untrusted files" in docs/agents.md)."""
    if not paths:
        return {}  # torch only when a policy is asked for
    from ..agents.opponent import BOT_OPPONENTS
    from ..agents.policy_file import load_policy
    policies = {}
    for path in paths:
        name = Path(path).stem
        while name in policies or name in BOT_OPPONENTS:
            name += "'"
        policies[name] = load_policy(path, trust=trust)
    return policies


def serve(*, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, policies: Sequence[str] = (),
          save: str | None = None, move_seconds: float = 10.0, trust: bool = False) -> None:
    """Runs the server until interrupted (uvicorn)."""
    try:
        import uvicorn
    except ImportError:
        raise ImportError("stratego serve needs the web extra: pip install -e '.[web]'") from None
    from .app import create_app
    app = create_app(policies=load_policies(list(policies), trust=trust), save=save, move_seconds=move_seconds)
    print(f"stratego serve: open http://{host}:{port}/ (Ctrl-C stops)"
          + (f"; finished games appended to {save}" if save else ""), flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")
