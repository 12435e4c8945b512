-- The automatic table's last settled reading, one row per table port: a restart of the app or
-- of the table's bridge compares the table's first settled reading with it, so sticks moved
-- meanwhile are still reported.
CREATE TABLE table_settled (
    port          TEXT PRIMARY KEY,      -- the pyserial URL the table is read on
    snapshot_json TEXT NOT NULL,         -- points, round, honba, sticks, dealer, riichi
    settled_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
