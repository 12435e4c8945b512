"""The table's game glue, used by the pages: the ledger over stored events, recording a change
and telling every scoreboard, wins, clubs and their standings, photos, the automatic table,
live updates and who may change what. Uses storage, printing, words and guard; never a page.
"""
