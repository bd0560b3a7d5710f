"""Joining a Ray cluster is bounded, and needs no Ray to refuse an address that is no Ray
head (stratego.integrations.distributed.probe_ray_head): servers on the loopback that accept and say
nothing, answer something else, or answer HTTP/2 as a head's GCS does. The part that runs
Ray's own connect is in tests/test_distributed.py (marker `ray`)."""
from __future__ import annotations

import re
import socket
import subprocess
import sys
import threading
import time
import types

import numpy as np
import pytest

from stratego.integrations import distributed


class FakeServer:
    """A TCP server on 127.0.0.1 that accepts connections and answers each with `reply`
    (b"": nothing, the connection held open; hang_up: closed at once) until stopped."""

    def __init__(self, reply: bytes = b"", read_first: bool = False, hang_up: bool = False,
                 close_after_read: bool = False):
        self.reply, self.read_first, self.hang_up = reply, read_first, hang_up
        self.close_after_read = close_after_read
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.address = f"127.0.0.1:{self.sock.getsockname()[1]}"
        self.held: list[socket.socket] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            if self.hang_up:
                conn.close()
                continue
            self.held.append(conn)
            if self.read_first:
                conn.settimeout(5)
                try:
                    conn.recv(1024)
                except OSError:
                    pass
            if self.close_after_read:
                conn.close()
                continue
            if self.reply:
                conn.sendall(self.reply)

    def __enter__(self) -> "FakeServer":
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.thread.join(5)
        for conn in self.held:
            conn.close()
        self.sock.close()


# The first frame a gRPC server sends: an empty SETTINGS frame (type 4, stream 0).
H2_SETTINGS = bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])


def test_the_default_timeout_is_under_a_minute():
    import inspect

    assert 0 < distributed.CONNECT_TIMEOUT < 60
    for call in (distributed.connect, distributed.run_bench_ray, distributed.SimulationPool):
        params = inspect.signature(call).parameters
        name = "timeout" if call is distributed.connect else "connect_timeout"
        assert params[name].default == distributed.CONNECT_TIMEOUT


def test_cli_at_a_silent_port_fails_within_its_timeout():
    # Seen before: `stratego bench --ray HOST:PORT` at a port that accepts TCP but is no
    # Ray head still waited after 11 minutes.
    with FakeServer() as server:
        start = time.monotonic()
        done = subprocess.run([sys.executable, "-m", "stratego.cli", "bench", "--ray", server.address,
                               "--ray-timeout", "2", "--steps", "3", "--no-progress"],
                              capture_output=True, text=True, timeout=120)
        elapsed = time.monotonic() - start
    assert done.returncode == 2, done.stdout + done.stderr
    assert (f"{server.address} accepted a TCP connection but did not answer as a Ray head within 2 s"
            in done.stderr), done.stderr
    assert "ray start --head" in done.stderr
    assert elapsed < 60, elapsed  # 2 s and an interpreter's start, on a loaded machine


def test_connect_to_a_silent_port_raises_within_the_timeout():
    with FakeServer() as server:
        start = time.monotonic()
        with pytest.raises(TimeoutError, match=f"{server.address} accepted a TCP connection but did not answer"):
            distributed.connect(server.address, timeout=0.5)
        assert time.monotonic() - start < 5


def test_something_else_at_the_address_is_named():
    with FakeServer(b"HTTP/1.1 400 Bad Request\r\n\r\n", read_first=True) as server:
        with pytest.raises(ConnectionError, match=f"{server.address} answered, but not as a Ray head: expected "
                                                  f"the HTTP/2 \\(gRPC\\) SETTINGS frame"):
            distributed.probe_ray_head(server.address, timeout=5)


def test_a_port_that_hangs_up_is_named():
    with FakeServer(hang_up=True) as server:
        with pytest.raises(ConnectionError, match=f"{server.address} (answered, but not as a Ray head|accepted a "
                                                  f"TCP connection, then (failed|closed it without answering))"):
            distributed.probe_ray_head(server.address, timeout=5)


def test_an_http2_server_passes_the_probe():
    with FakeServer(H2_SETTINGS, read_first=True) as server:
        distributed.probe_ray_head(server.address, timeout=5)  # a head's GCS answers so


def test_refused_and_malformed_addresses():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens once it is closed
    with pytest.raises(ConnectionError, match=f"no Ray head at 127.0.0.1:{port}"):
        distributed.probe_ray_head(f"127.0.0.1:{port}", timeout=5)
    for bad in ("nowhere", "host:", ":6379", "host:99999", "host:port"):
        with pytest.raises(ValueError, match="a Ray address is HOST:PORT"):
            distributed.probe_ray_head(bad)
    for bad in (0, -1, float("nan"), float("inf"), np.float64("nan"), np.float32(-2)):
        with pytest.raises(ValueError, match=r"timeout must be a number of seconds > 0, got .* \(it must be "
                                             r"finite and above 0\)"):
            distributed.connect("127.0.0.1:1", timeout=bad)
    for bad in (True, np.bool_(True), "10", None, 1j):
        with pytest.raises(ValueError, match=r"timeout must be a number of seconds > 0, got .* \(\w+, not a "
                                             r"real number\)"):
            distributed.connect("127.0.0.1:1", timeout=bad)


def test_numpy_numbers_are_timeouts():
    # A timeout computed with NumPy (a config's np.float32, an np.int64) is a timeout.
    with FakeServer(H2_SETTINGS, read_first=True) as server:
        for timeout in (np.float32(5), np.int64(5), np.float64(5)):
            distributed.probe_ray_head(server.address, timeout=timeout)


def test_a_peer_that_closes_without_answering_is_named():
    with FakeServer(read_first=True, close_after_read=True) as server:
        with pytest.raises(ConnectionError, match=f"{server.address} accepted a TCP connection, then closed it "
                                                  f"without answering as a Ray head"):
            distributed.probe_ray_head(server.address, timeout=5)


class FakeRay(types.ModuleType):
    """Stands in for the ray module: its init takes `init_seconds`, or waits for
    `release` when given, then counts as connected."""

    def __init__(self, init_seconds: float = 0.0, release: threading.Event | None = None):
        super().__init__("ray")
        self.init_seconds, self.release, self.connected = init_seconds, release, False

    def is_initialized(self) -> bool:
        return self.connected

    def init(self, address=None, **kwargs):
        if self.release is not None:
            self.release.wait(30)
        else:
            time.sleep(self.init_seconds)
        self.connected = True


def test_importing_ray_does_not_count_against_the_connect_timeout(monkeypatch):
    # Importing Ray takes seconds on a loaded machine and is no part of reaching the head:
    # ray.init gets what the probe left of the timeout.
    fake = FakeRay(init_seconds=1.0)
    monkeypatch.setitem(sys.modules, "ray", fake)

    def slow_import():
        time.sleep(2.0)
        return fake

    monkeypatch.setattr(distributed, "_import_ray", slow_import)
    with FakeServer(H2_SETTINGS, read_first=True) as server:
        assert distributed.connect(server.address, timeout=2.5) is fake
    assert fake.connected


def test_connect_after_one_that_timed_out_is_refused_while_ray_still_retries(monkeypatch):
    release = threading.Event()
    fake = FakeRay(release=release)
    monkeypatch.setitem(sys.modules, "ray", fake)
    monkeypatch.setattr(distributed, "_pending_init", None)
    try:
        with FakeServer(H2_SETTINGS, read_first=True) as server:
            with pytest.raises(TimeoutError, match=f"Ray did not connect to the head at {server.address}"):
                distributed.connect(server.address, timeout=0.5)
            # Ray's connect goes on in the background, and may yet join that cluster.
            with pytest.raises(RuntimeError, match=re.escape(f"an earlier connect() timed out, and its "
                                                             f"ray.init({server.address}) still retries")):
                distributed.connect(server.address, timeout=0.5)
            assert not fake.connected
    finally:
        release.set()
    distributed._pending_init.join(10)
    # Once it has ended, connect() sees the Ray it joined.
    assert distributed.connect("127.0.0.1:1", timeout=0.5) is fake
