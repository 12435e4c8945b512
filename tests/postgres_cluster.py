"""A throwaway PostgreSQL for the storage tests: one cluster per test run (initdb in a temporary
folder, its own port, its socket in that folder, nothing on TCP), one fresh database per test.

The binaries are Debian's (`apt-get install postgresql`, found under /usr/lib/postgresql/*/bin)
or any on PATH; without them `start_cluster` says so (the tests' half on PostgreSQL skips, and
bench/club.py measures SQLite alone). initdb refuses to
run as root, so under root the cluster runs as the `postgres` user Debian's package makes.
"""
from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path



class ClusterUnavailable(Exception):
    """No PostgreSQL here to start (the reason is the message)."""


def _binaries() -> Path | None:
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.access(Path(folder) / "pg_ctl", os.X_OK):
            return Path(folder)
    found = shutil.which("pg_ctl")
    return Path(found).parent if found else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Cluster:
    bin: Path
    folder: Path
    port: int
    user: str | None            # run the server as this user (we are root), else as ourselves
    _names: itertools.count = field(default_factory=lambda: itertools.count(1))

    def _run(self, *argv: str, **kwargs) -> subprocess.CompletedProcess:
        command = [str(self.bin / argv[0]), *argv[1:]]
        if self.user:
            command = ["runuser", "-u", self.user, "--", *command]
        return subprocess.run(command, check=True, capture_output=True, text=True, timeout=120, **kwargs)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.folder}&port={self.port}"

    def start(self) -> None:
        data = self.folder / "data"
        self._run("initdb", "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
                  "--no-sync", "--no-instructions")
        # nothing on TCP, the socket here; durability is not what a test run measures
        options = (f"-c listen_addresses='' -c unix_socket_directories='{self.folder}' -p {self.port} "
                   "-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
        self._run("pg_ctl", "-D", str(data), "-o", options, "-l", str(self.folder / "log"), "-w", "start")

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop")
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired):
            pass

    def psql(self, sql: str, database: str = "postgres") -> str:
        return self._run("psql", "-h", str(self.folder), "-p", str(self.port), "-U", "postgres", "-d", database,
                         "-v", "ON_ERROR_STOP=1", "-qAt", "-c", sql).stdout

    def new_database(self) -> str:
        """A fresh, empty database's URL."""
        name = f"tenbou_{os.getpid()}_{next(self._names)}"
        self.psql(f"CREATE DATABASE {name}")
        return self.url(name)

    def drop(self, url: str) -> None:
        name = url.split("/")[3].split("?")[0]
        self.psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def start_cluster() -> Cluster:
    binaries = _binaries()
    if binaries is None:
        raise ClusterUnavailable("PostgreSQL is not installed (apt-get install postgresql)")
    user = None
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            raise ClusterUnavailable("running as root with no postgres user to run a PostgreSQL cluster as") from None
        user = "postgres"
    folder = Path(tempfile.mkdtemp(prefix="tenbou-pg-"))
    if user:
        shutil.chown(folder, user)
    cluster = Cluster(binaries, folder, _free_port(), user)
    try:
        cluster.start()
    except subprocess.CalledProcessError as err:
        log = folder / "log"
        shutil.rmtree(folder, ignore_errors=True)
        raise RuntimeError(f"PostgreSQL did not start: {err.stderr}{log.read_text() if log.exists() else ''}") from err
    return cluster
