"""Waitress with a door that slow clients cannot hold shut: a deadline for a request's headers
and a fair share of the connections for each address.

Waitress closes a connection only once it has been idle for `channel_timeout`, and stops
accepting at `connection_limit`. A client that sends one header line every 10 s is never idle:
520 of them (400 bytes a second) held every connection, and no page loaded for anyone. Here:

- a request's headers must all arrive within `header_deadline` seconds of its first byte,
  however slowly they trickle, or the connection is closed (checked every `cleanup_interval`);
- a newcomer is let in even when the server is full: the connection that has waited longest
  for its headers is closed for it (else the one idle longest, else the one sending a body);
  only when every connection is busy with a running request (pages, live streams) does the
  door close, as waitress does, until one ends;
- one address (an IPv6 one by its /64) holds at most `per_address` connections (half the
  limit, so never most of them): its newcomer takes the place of that address's own
  longest-waiting connection, or is refused when all of them are busy. Trusted proxies, which
  bring many phones over one address, are exempt; the proxy keeps its own limits (docs/web.md).

Honest clients send their headers in one packet, so they are never the ones waiting.
"""
from __future__ import annotations

import time

from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.server import TcpWSGIServer

from webui.guard.client_address import Network, counted_as, is_trusted

# Seconds a request's headers may take in all: a phone on bad Wi-Fi sends its 1 kB of headers
# in well under a second; a slow client that sends a line every few seconds is cut at this.
HEADER_DEADLINE = 10.0


class GuardedChannel(HTTPChannel):
    """A connection that knows its client's address and since when it has been waiting for a
    request's headers."""
    address_key = ""                        # what the share per address counts (an IPv6 address by its /64)
    waiting_since: float | None = None      # the first byte of a request whose headers are not all in
    _timed = None                           # the parser `waiting_since` belongs to

    def received(self, data: bytes) -> bool:
        done = super().received(data)
        request = self.request
        if request is None or request.headers_finished:
            self.waiting_since = self._timed = None
        elif request is not self._timed:        # a new request began in this read
            self.waiting_since, self._timed = time.time(), request
        return done


def closable(channel: HTTPChannel) -> tuple[int, float] | None:
    """How readily `channel` may be closed for a newcomer, lowest first: waiting for headers
    (longest first), idle between requests (longest first), sending a body; None while a
    request runs on it (a page being answered, a live stream)."""
    if channel.requests:
        return None
    waiting = getattr(channel, "waiting_since", None)
    if waiting is not None:
        return (0, waiting)
    if channel.request is None:
        return (1, channel.last_activity)
    return (2, channel.last_activity)


def place_for(address_key: str, channels: list[HTTPChannel], limit: int,
              per_address: int | None) -> tuple[bool, HTTPChannel | None]:
    """Whether a new connection counted as `address_key` may come in, and the connection to
    close for it (None: there is room). `per_address` None: no share (a trusted proxy)."""
    mine = [c for c in channels if getattr(c, "address_key", None) == address_key]
    if per_address is not None and len(mine) >= per_address:
        crowd = mine
    elif len(channels) >= limit:
        crowd = channels
    else:
        return True, None
    ranked = [(rank, c) for c in crowd if (rank := closable(c)) is not None]
    if not ranked:
        return False, None
    return True, min(ranked, key=lambda pair: pair[0])[1]


class GuardedServer(TcpWSGIServer):
    channel_class = GuardedChannel
    header_deadline = HEADER_DEADLINE
    per_address = 250               # `create_guarded_server` sets these three
    proxies: tuple[Network, ...] = ()

    def readable(self) -> bool:
        now = time.time()
        if now >= self.next_channel_cleanup:
            self.next_channel_cleanup = now + self.adj.cleanup_interval
            self.maintenance(now)
        if not self.accepting:
            return False
        # full: accept while some connection could make way, else let newcomers wait their turn
        full = len(self.active_channels) >= self.adj.connection_limit
        return not full or any(closable(c) is not None for c in self.active_channels.values())

    def handle_accept(self) -> None:
        try:
            accepted = self.accept()
        except OSError:
            return
        if accepted is None:
            return
        conn, addr = accepted
        address = addr[0] if isinstance(addr, tuple) else str(addr)
        key = counted_as(address)
        share = None if is_trusted(address, self.proxies) else self.per_address
        admitted, victim = place_for(key, list(self.active_channels.values()), self.adj.connection_limit, share)
        if victim is not None:
            victim.handle_close()       # on this loop's thread, and no task runs on it
        if not admitted:
            conn.close()
            return
        try:
            self.set_socket_options(conn)
        except OSError:
            conn.close()
            return
        channel = self.channel_class(self, conn, self.fix_addr(addr), self.adj, map=self._map)
        channel.address_key = key

    def maintenance(self, now: float) -> None:
        super().maintenance(now)        # idle connections
        cutoff = now - self.header_deadline
        for channel in self.active_channels.values():
            waiting = getattr(channel, "waiting_since", None)
            if waiting is not None and waiting < cutoff and not channel.requests:
                channel.will_close = True


def create_guarded_server(app, *, host: str, port: int, header_deadline: float = HEADER_DEADLINE,
                          per_address: int | None = None, proxies: tuple[Network, ...] = (),
                          **options) -> GuardedServer:
    """Waitress's server for `app` on host:port with these waitress `options`, guarded as above;
    `per_address` defaults to half the connection limit; `proxies` are the trusted proxies."""
    adj = Adjustments(host=host, port=port, **options)
    server = GuardedServer(app, map={}, adj=adj, sockinfo=adj.listen[0])
    server.header_deadline = header_deadline
    server.per_address = per_address or max(1, adj.connection_limit // 2)
    server.proxies = tuple(proxies)
    return server
