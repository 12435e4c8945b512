-- Sessions and their append-only event log. State is always a replay of `events`.
CREATE TABLE session (
    id          TEXT PRIMARY KEY,          -- random, in every link
    join_code   TEXT NOT NULL,             -- needed to change the session
    title       TEXT NOT NULL DEFAULT '',
    config_json TEXT NOT NULL,             -- the ledger's GameConfig.to_json()
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    uses_table  INTEGER NOT NULL DEFAULT 0 -- follow the automatic table's scores
);

CREATE TABLE event (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id  TEXT NOT NULL REFERENCES session(id) ON DELETE CASCADE,
    body_json   TEXT NOT NULL,             -- one ledger event
    form_token  TEXT,                      -- one per rendered form: a double submit records once
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    -- undo never deletes: the undone event stays for the record and replay skips it
    undone_at   TEXT,
    UNIQUE (session_id, form_token)
);

CREATE INDEX event_by_session ON event(session_id, id);
