"""bot/domain/clocks.py: the deadline arithmetic, with values worked out by hand."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.domain import clocks
from bot.domain.clocks import DAY, HOUR

# (time per move, first reminder, last reminder): T/2, then max(0.9 T, T - 1 day).
REMINDERS = [
    (HOUR, 1800, 3240),
    (6 * HOUR, 10800, 19440),
    (12 * HOUR, 21600, 38880),
    (DAY, 43200, 77760),
    (2 * DAY, 86400, 155520),
    (3 * DAY, 129600, 233280),
    (5 * DAY, 216000, 388800),
    (7 * DAY, 302400, 544320),
    (14 * DAY, 604800, 1123200),  # 13 days: a day before the end, not 1.4 days
]


def test_every_offered_time_has_its_two_reminders():
    assert [seconds for _, seconds in clocks.TIME_CHOICES] == [t for t, _, _ in REMINDERS]
    for time, first, last in REMINDERS:
        assert clocks.reminder_offsets(time) == (first, last), time


def test_reminders_due_and_the_next_one():
    start = 1_000_000.0
    assert clocks.reminder_state(start, HOUR, start + 1799) == (0, start + 1800)
    assert clocks.reminder_state(start, HOUR, start + 1800) == (1, start + 3240)
    assert clocks.reminder_state(start, HOUR, start + 3240) == (2, None)
    assert clocks.reminder_state(start, HOUR, start + 99 * DAY) == (2, None)


def test_a_turn_and_a_turn_that_waits_for_a_vacation():
    now = 1_000_000.0
    assert clocks.new_turn(now, DAY, HOUR, None) == {
        "turn_started_at": now,
        "remind_at": now + 43200,
        "reminded": 0,
        "claim_at": now + DAY,
        "claim_notified": 0,
        "timeout_at": now + DAY + HOUR,
        "paused_until": None,
    }
    away = clocks.new_turn(now, DAY, HOUR, now + 2 * DAY)
    assert (away["turn_started_at"], away["claim_at"], away["timeout_at"]) == (
        now + 2 * DAY,
        now + 3 * DAY,
        now + 3 * DAY + HOUR,
    )
    assert away["paused_until"] == now + 2 * DAY
    assert clocks.new_turn(now, DAY, HOUR, now - 1)["paused_until"] is None  # over


def test_words_and_the_board_line():
    assert [clocks.describe(s) for s in (30, 60, HOUR, 5400, DAY, 3 * DAY)] == [
        "30 seconds",
        "1 minute",
        "1 hour",
        "1.5 hours",
        "1 day",
        "3 days",
    ]
    assert clocks.clock_line(7, 5000.0, None, 1000.0) == "<@7> moves <t:5000:R>"
    assert clocks.clock_line(7, 5000.0, None, 5000.0) == "<@7>'s time ran out <t:5000:R>"
    assert clocks.clock_line(7, 5000.0, 9000.0, 1000.0) == (
        "<@7> is on vacation until <t:9000:f>: the clock waits"
    )


def test_refunds_count_whole_days_not_begun():
    now = 1_000_000.0
    assert clocks.refund_days(now + 2.5 * DAY, now) == 2
    assert clocks.refund_days(now + 3 * DAY, now) == 3
    assert clocks.refund_days(now + DAY - 1, now) == 0
    assert clocks.refund_days(now - DAY, now) == 0


@pytest.mark.parametrize("value", [HOUR, "3600", 3600.0])
def test_a_time_offered_reads(value):
    assert clocks.parse_time(value) == HOUR


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.text(max_size=30), st.integers(), st.floats(), st.booleans(), st.none()))
def test_anything_else_is_refused_with_the_choices(value):
    allowed = {seconds for _, seconds in clocks.TIME_CHOICES}
    try:
        parsed = clocks.parse_time(value)
    except clocks.ClockError as error:
        assert "1 hour, 6 hours, 12 hours, 1 day" in str(error)
        return
    assert parsed in allowed and not isinstance(value, bool)
