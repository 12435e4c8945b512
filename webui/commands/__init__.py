"""One module per `tenbou` subcommand."""
