"""Sequence gaps, restarts, wraps, and the link state machine, on fake time."""
from __future__ import annotations

from device.link import LinkMonitor, LinkState, LinkTimings, SeqResult, SeqTracker


def test_consecutive_frames_lose_nothing():
    seq = SeqTracker()
    assert [seq.observe(n, 1000 + n) for n in range(5)] == [SeqResult()] * 5
    assert seq.missed == 0


def test_a_jump_of_three_is_two_missed():
    seq = SeqTracker()
    seq.observe(10, 1000)
    assert seq.observe(13, 1300) == SeqResult(missed=2)
    assert seq.missed == 2


def test_back_to_zero_with_smaller_uptime_is_a_restart_not_a_gap():
    seq = SeqTracker()
    seq.observe(1234, 5_123_456)
    assert seq.observe(0, 812) == SeqResult(restart=True)
    assert seq.missed == 0 and seq.restarts == 1
    assert seq.observe(1, 900) == SeqResult()


def test_65535_to_0_with_growing_uptime_is_a_wrap():
    seq = SeqTracker()
    seq.observe(65535, 9_000_000)
    assert seq.observe(0, 9_000_100) == SeqResult()
    assert seq.observe(2, 9_000_300) == SeqResult(missed=1)


def test_uptime_wrapping_at_2_to_the_32_is_not_a_restart():
    seq = SeqTracker()
    seq.observe(500, 2**32 - 100)
    assert seq.observe(501, 50) == SeqResult()


def test_a_repeated_frame_is_not_a_gap():
    seq = SeqTracker()
    seq.observe(7, 700)
    assert seq.observe(7, 700) == SeqResult()
    assert seq.missed == 0


def test_after_a_reconnect_the_first_frame_starts_afresh():
    seq = SeqTracker()
    seq.observe(7, 700)
    seq.forget()
    assert seq.observe(200, 20000) == SeqResult()


T = LinkTimings(stale_after=3.0, garbled_after=3.0)


def opened(now: float = 0.0) -> LinkMonitor:
    link = LinkMonitor(T)
    link.connected(now)
    return link


def test_a_valid_frame_makes_the_link_live():
    link = opened()
    assert link.state is None
    assert link.frame_seen(0.5) is LinkState.LIVE
    assert link.frame_seen(1.5) is None  # no repeated event


def test_silence_is_stale_after_three_seconds():
    link = opened()
    link.frame_seen(1.0)
    assert link.tick(3.9) is None
    assert link.tick(4.0) is LinkState.STALE
    assert link.frame_seen(10.0) is LinkState.LIVE


def test_nothing_at_all_after_opening_is_stale():
    link = opened(0.0)
    assert link.tick(2.9) is None
    assert link.tick(3.0) is LinkState.STALE


def test_bytes_without_a_frame_for_three_seconds_are_garbled_then_stale_when_they_stop():
    link = opened()
    link.frame_seen(0.0)
    for t in (0.5, 1.0, 2.0, 3.0):
        assert link.bytes_seen(t) is None
    assert link.bytes_seen(3.5) is LinkState.GARBLED
    assert link.tick(6.4) is None        # the last byte came at 3.5
    assert link.tick(6.5) is LinkState.STALE


def test_frames_among_noise_keep_the_link_live():
    link = opened()
    link.frame_seen(0.0)
    for t in range(1, 20):
        link.bytes_seen(t - 0.5)  # noise
        link.bytes_seen(float(t))
        assert link.frame_seen(float(t)) is None
    assert link.state is LinkState.LIVE


def test_a_lost_port_is_disconnected_and_time_does_not_change_that():
    link = opened()
    link.frame_seen(0.0)
    assert link.disconnected(1.0) is LinkState.DISCONNECTED
    assert link.tick(100.0) is None
    link.connected(101.0)
    assert link.frame_seen(101.2) is LinkState.LIVE


def test_timeouts_are_configurable():
    link = LinkMonitor(LinkTimings(stale_after=0.2, garbled_after=0.2))
    link.connected(0.0)
    link.frame_seen(0.0)
    assert link.tick(0.2) is LinkState.STALE
