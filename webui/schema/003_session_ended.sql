-- Whether the session's game has ended: its join code stops opening it then. NULL until known
-- (sessions stored before this column, and after an undo): the next join replays the events
-- and stores the answer.
ALTER TABLE session ADD COLUMN ended INTEGER;
