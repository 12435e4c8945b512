"""The app under waitress on a free port of 127.0.0.1, in a thread, for the browser tests."""
from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def serving(app, threads: int) -> Iterator[str]:
    """Serve `app`; yields the base URL. Stopped in an order that leaves no thread failing:
    the workers first, then every socket closed by the server's own loop (closing them from
    this thread can pull one from under the loop's select(), which then fails)."""
    from waitress import create_server

    server = create_server(app, host="127.0.0.1", port=0, threads=threads)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        server.task_dispatcher.shutdown()
        server.trigger.pull_trigger(lambda: server.asyncore.close_all(server._map))
        thread.join(5)
