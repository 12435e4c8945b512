"""Which address a request came from, as the throttles count it.

The peer's address, except when the peer is a trusted proxy (`tenbou serve --trusted-proxy
ADDR`, config `TRUSTED_PROXIES`): then the address that proxy says it forwarded for, the last
entry of `X-Forwarded-For`, and so on leftwards while that entry is itself a trusted proxy.
Entries further left were written by the client and are never read; from a peer that is no
proxy of ours the header is ignored altogether. Behind a proxy every phone would otherwise be
the proxy's one address, and one guesser would throttle them all.

An IPv6 address is counted by its /64, the block one household or phone is given: otherwise
one client could be a new address for every try.
"""
from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from functools import lru_cache

from flask import current_app, request

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def proxy_network(text: str) -> Network:
    """A trusted proxy as typed: an address (`10.0.0.2`) or a network (`10.0.0.0/24`);
    ValueError in words for anything else."""
    try:
        return ipaddress.ip_network(text.strip(), strict=False)
    except ValueError:
        raise ValueError(f"{text!r} is not an IP address or network (e.g. 127.0.0.1 or 10.0.0.0/24)") from None


@lru_cache(maxsize=8)
def _networks(texts: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(proxy_network(t) for t in texts)


def is_trusted(address: str, proxies: Iterable[Network]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in proxies)


def forwarded_for(peer: str, header: str | None, proxies: tuple[Network, ...]) -> str:
    """The client's address: `peer`, or walking `header` (X-Forwarded-For) from its right end
    while the address in hand is a trusted proxy."""
    hops = [hop.strip() for hop in (header or "").split(",") if hop.strip()]
    address = peer
    while hops and is_trusted(address, proxies):
        address = hops.pop()
    return address


def counted_as(address: str) -> str:
    """The key a throttle counts `address` under: itself, an IPv6 address's /64, and text that
    is no address cut short (a proxy may write `unknown`)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address[:64]
    if ip.version == 4:
        return str(ip)
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ipaddress.ip_network(f"{ip}/64", strict=False))


def client_address() -> str:
    """The address this request is counted under (see the module's docstring)."""
    proxies = _networks(tuple(current_app.config.get("TRUSTED_PROXIES") or ()))
    address = forwarded_for(request.remote_addr or "?", request.headers.get("X-Forwarded-For"), proxies)
    return counted_as(address)
