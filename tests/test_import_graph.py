"""webui/ keeps its wings (docs/layout.md): no cycles in webui/ or vision/, no page imports a page,
storage imports nothing above it, and at most eight levels of imports inside webui/."""
from __future__ import annotations

from tests import import_graph as ig


def test_no_module_imports_itself_round_about():
    assert ig.cycles(ig.graph("webui")) == []
    assert ig.cycles(ig.graph("vision")) == []


def test_each_wing_imports_only_what_it_may():
    assert ig.broken_rules(ig.graph("webui")) == []


def test_at_most_eight_levels():
    chain = ig.longest_chain(ig.graph("webui"))
    assert len(chain) <= ig.MOST_LEVELS, " -> ".join(chain)


def test_the_checks_see_what_they_forbid():
    # the same rules on made-up graphs: a cycle, a page importing a page, storage reaching up
    made_up = {"webui.pages.a": {"webui.pages.b"}, "webui.pages.b": set(),
               "webui.storage.s": {"webui.play.p"}, "webui.play.p": {"webui.storage.s"}}
    assert ig.cycles(made_up) == [["webui.play.p", "webui.storage.s"]]
    assert ig.broken_rules(made_up) == ["webui.pages.a -> webui.pages.b: a page imports a page",
                                        "webui.storage.s -> webui.play.p: storage may not import play"]
    assert len(ig.longest_chain({"a": {"b"}, "b": {"c"}, "c": set()})) == 3


def test_every_webui_module_is_in_a_wing_or_is_the_app_or_a_command():
    for name in ig.graph("webui"):
        assert (ig.wing(name) or name in ("webui", "webui.cli")
                or name.startswith("webui.commands") or name.split(".")[1] in ig.WINGS), name
