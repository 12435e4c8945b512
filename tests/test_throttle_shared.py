"""Wrong join codes counted in the database: servers sharing one PostgreSQL slow a guesser
together, as one server does (webui/storage/throttle.py)."""
from __future__ import annotations

import pytest

from webui import create_app
from webui.storage import db
from webui.storage.throttle import SharedBuckets

from tests.test_web_support import csrf_of, new_session


@pytest.fixture
def engine(database_url):
    made = db.create_engine(database_url)
    db.migrate(made)
    yield made
    made.dispose()


def test_buckets_in_the_database_are_one_for_every_server(engine):
    now = [1000.0]
    first, second = (SharedBuckets(engine, 3, 2.0, "client:", clock=lambda: now[0]) for _ in range(2))
    for bucket in (first, second, first):
        assert bucket.wait("10.0.0.7") == 0
        bucket.take("10.0.0.7")
    assert second.wait("10.0.0.7") == pytest.approx(2.0)     # three taken through two servers
    assert first.wait("10.0.0.8") == 0                        # another address is not slowed
    now[0] += 1.0
    assert first.wait("10.0.0.7") == pytest.approx(1.0)
    now[0] += 1.0
    assert second.wait("10.0.0.7") == 0                        # refilled, one token a refill
    second.take("10.0.0.7")
    assert first.wait("10.0.0.7") == pytest.approx(2.0)       # never below none


def test_full_buckets_are_forgotten_as_others_are_spent(engine):
    import sqlalchemy as sa

    from webui.storage.schema.tables import throttle
    now = [0.0]
    bucket = SharedBuckets(engine, 2, 1.0, "client:", clock=lambda: now[0])
    for address in ("a", "b", "c"):
        bucket.take(address)
    now[0] = 100.0
    bucket.take("d")
    with engine.connect() as conn:
        assert conn.execute(sa.select(throttle.c.key)).scalars().all() == ["client:d"]


def test_two_servers_on_postgresql_throttle_one_guesser_together(tmp_path, request):
    cluster = request.getfixturevalue("postgres")
    url = cluster.new_database()
    apps = [create_app({"DATA_DIR": str(tmp_path / f"data{n}"), "DATABASE_URL": url, "TESTING": True})
            for n in range(2)]
    try:
        owner = apps[0].test_client()
        session_id, _, _ = new_session(owner)
        answers = []
        for n in range(12):                    # ten wrong codes allowed an address, then one a 6 s
            guesser = apps[n % 2].test_client()
            token = csrf_of(guesser)
            answers.append(guesser.post("/join", data={"csrf_token": token, "session": session_id,
                                                       "code": f"WRNG{n:02d}"}).status_code)
        assert answers[:10] == [403] * 10 and answers[10:] == [429, 429]
    finally:
        for app in apps:
            app.extensions["tenbou.broker"].close()
            app.extensions["tenbou.db"].dispose()
        cluster.drop(url)
