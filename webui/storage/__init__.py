"""Storage, at the bottom: the engine (SQLite or PostgreSQL), schema and migrations, the queries,
`tenbou db copy`, the notifier between servers and the throttle tables. Imports nothing above it.
"""
