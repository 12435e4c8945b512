"""`tenbou club`: list, import a settle log, standings; every refusal one line and exit 2."""
from __future__ import annotations

from pathlib import Path

from webui.play import clubs
from webui import create_app
from webui.cli import main

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"


def test_import_then_standings_from_the_command_line(tmp_path, capsys):
    app = create_app({"DATA_DIR": str(tmp_path)})
    with app.app_context():
        club = clubs.create_club("Thursday")
        clubs.add_member(club.id, "Ann")
        clubs.add_member(club.id, "Di")
    data = ["--data", str(tmp_path)]
    assert main(["club", "list", *data]) == 0
    assert f"{club.id}  Thursday  (Ann, Di)" in capsys.readouterr().out
    log = str(EXAMPLES / "riichi-session.json")
    assert main(["club", "import", club.id, log, "--played-on", "2026-11-01", *data]) == 0
    assert "Added 2 games to Thursday" in capsys.readouterr().out
    assert main(["club", "standings", club.id, "--season", "all", "--csv", *data]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[0].startswith("rules,name,games") and {r.split(",")[1] for r in rows[1:]} == {"Ann", "Di"}

    for argv, words in ((["club", "import", "nope", log], "no club nope"),
                        (["club", "import", club.id, str(EXAMPLES.parent.parent / "README.md")], "not valid JSON"),
                        (["club", "import", club.id, log, "--played-on", "2026-13-01"], "a date such as"),
                        (["club", "standings", club.id, "--season", "zz"], "no such season")):
        assert main([*argv, *data]) == 2
        err = capsys.readouterr().err
        assert words in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    with app.app_context():
        assert len(clubs.club_sessions(club.id)) == 2       # the refusals added nothing
