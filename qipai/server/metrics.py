"""Prometheus metrics of one server process (`GET /metrics`), on the app's own registry.

The event-loop lag probe sleeps `interval` seconds over and over and records how late it
wakes up: the time any request or table waited for the loop at that moment. The
scale-out (docs/scaling.md) adds its own metrics to `Metrics.registry`.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

LAG_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class Metrics:
    def __init__(self) -> None:
        self._max = 0.0
        self.registry = CollectorRegistry(auto_describe=True)
        self.lag = Gauge(
            "qipai_event_loop_lag_seconds",
            "How late the event loop ran the last lag probe",
            registry=self.registry,
        )
        self.lag_max = Gauge(
            "qipai_event_loop_lag_max_seconds",
            "Largest event-loop lag seen since the process started",
            registry=self.registry,
        )
        self.lag_histogram = Histogram(
            "qipai_event_loop_lag",
            "Event-loop lag per probe (seconds)",
            buckets=LAG_BUCKETS,
            registry=self.registry,
        )
        self.sockets = Gauge(
            "qipai_websockets", "Open authenticated WebSockets", registry=self.registry
        )
        self.refused = Counter(
            "qipai_refused",
            "Requests and frames refused by a limit",
            ["limit"],
            registry=self.registry,
        )
        self.warming = Gauge(
            "qipai_warming",
            "1 while the start-up warm-up (Hold'em kernels, exact returns) still runs",
            registry=self.registry,
        )
        self.closed_slow = Counter(
            "qipai_websockets_closed_slow",
            "WebSockets closed because they stayed behind",
            registry=self.registry,
        )

    def observe_lag(self, lag: float) -> None:
        self.lag.set(lag)
        self.lag_histogram.observe(lag)
        if lag > self._max:
            self._max = lag
            self.lag_max.set(lag)

    async def probe_lag(
        self, interval: float, clock: Callable[[], float] = time.perf_counter
    ) -> None:
        """Run until cancelled: measure the loop's lag every `interval` seconds."""
        with contextlib.suppress(asyncio.CancelledError):
            while True:
                start = clock()
                await asyncio.sleep(interval)
                self.observe_lag(max(0.0, clock() - start - interval))


__all__ = ["Metrics"]
