"""What stands between every request and the game: bounded reading of what a phone sends (forms,
limits), refusals in words (errors), overload slots, the security headers, text no database
keeps, the client's address through trusted proxies, and the guarded accept loop (connections)."""
