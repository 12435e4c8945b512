"""`tenbou score` — placeholder until the riichi engine lands (issue 2)."""


def register(sub) -> None:
    parser = sub.add_parser("score", help="score a hand given as hand JSON")
    parser.add_argument("file", help="a request file, or - for stdin")
    parser.set_defaults(run=lambda args: 2)
