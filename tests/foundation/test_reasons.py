"""The reason catalogue's helpers: a score and the threshold it was compared with are
written so that they differ whenever they do."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from affidavit.reasons import compared


@pytest.mark.parametrize(
    ("value", "bound", "percent", "shown"),
    [
        (0.4207, 0.425, False, ("0.421", "0.425")),  # "0.42 < 0.42" before
        (0.37, 0.425, False, ("0.37", "0.42")),  # two decimals differ already
        (0.7996, 0.8, True, ("79.96%", "80.00%")),
        (0.58, 0.8, True, ("58%", "80%")),
        (0.5, 0.5, False, ("0.50", "0.50")),  # equal values print equal
    ],
)
def test_a_value_and_its_bound_get_the_fewest_digits_that_tell_them_apart(
    value: float, bound: float, percent: bool, shown: tuple[str, str]
) -> None:
    assert compared(value, bound, percent=percent) == shown


@given(st.floats(0, 1), st.floats(0, 1), st.booleans())
def test_values_apart_never_print_alike(value: float, bound: float, percent: bool) -> None:
    one, other = compared(value, bound, percent=percent)
    if abs(value - bound) > 1e-10:
        assert one != other
    if value == bound:
        assert one == other
