"""Whatever a request holds, `scorer.score` answers with the contract's shape and one of its error
codes — never an exception, never Tenbou's `internal_error`."""
from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer import score
from tests.test_contract import BASE, OPEN

CODES = {"bad_tile", "wrong_tile_count", "too_many_copies", "bad_meld", "not_a_winning_hand", "no_yaku",
         "win_tile_not_in_hand", "bad_flag_combination", "missing_discarder", "unknown_rules",
         "unknown_preset", "unknown_option", "bad_option", "bad_request"}

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 20) | st.floats(allow_nan=False) | st.text("0123456789mpszfESWN x", max_size=16),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["kind", "tiles", "from", "kiriage", "aka"]), inner, max_size=3),
    max_leaves=8,
)
FIELDS = sorted(set(BASE) | set(OPEN) | {"players", "options", "preset", "honba", "riichi", "ippatsu", "pao",
                                         "dora_indicators", "ura_indicators", "nukidora", "flowers", "tsumo"})


@settings(max_examples=400, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([BASE, OPEN]), st.dictionaries(st.sampled_from(FIELDS), JSON, min_size=1, max_size=3))
def test_any_request_gets_an_answer_in_the_contracts_shape(base, changes):
    response = score({**base, **changes})
    json.dumps(response)
    if response["ok"]:
        assert {"han", "fu", "points", "transfers", "yaku"} <= set(response)
    else:
        assert response["error"]["code"] in CODES, response
        assert response["error"]["message"]
