"""What stands between every request and the game: bounded reading of what a phone sends (forms,
limits), refusals in words (errors), overload slots and the security headers."""
