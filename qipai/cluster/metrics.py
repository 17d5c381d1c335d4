"""A table host's Prometheus metrics, on the process's registry (`GET /metrics`).

Beside the server's own (event-loop lag, sockets, refusals): tables owned, seats taken, lease
renewals and their failures, leases lost, takeovers and how long a lapsed table waited for its
new owner, fenced writes refused, and the messages routed over Redis.
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

TAKEOVER_BUCKETS = (0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 7.5, 10.0, 30.0)
CALL_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 3.0)


class ClusterMetrics:
    def __init__(self, registry: CollectorRegistry, host_id: str) -> None:
        self.host_id = host_id
        self.info = Gauge(
            "qipai_host_info", "This table host (value 1)", ["host"], registry=registry
        )
        self.info.labels(host_id).set(1)
        self.tables = Gauge("qipai_tables_owned", "Tables this host owns", registry=registry)
        self.seats = Gauge(
            "qipai_seats_active", "Seats taken by people at this host's tables", registry=registry
        )
        self.renewals = Counter(
            "qipai_lease_renewals", "Leases renewed (one per table per pass)", registry=registry
        )
        self.renewal_failures = Counter(
            "qipai_lease_renewal_failures",
            "Lease passes that failed (the database was unreachable)",
            registry=registry,
        )
        self.lost = Counter(
            "qipai_leases_lost", "Tables whose lease another host took over", registry=registry
        )
        self.takeovers = Counter(
            "qipai_takeovers", "Lapsed tables this host took over and resumed", registry=registry
        )
        self.takeover_seconds = Histogram(
            "qipai_takeover_wait_seconds",
            "From a lapsed lease's last renewal to its table resumed here (seconds)",
            buckets=TAKEOVER_BUCKETS,
            registry=registry,
        )
        self.fenced = Counter(
            "qipai_fenced_writes",
            "Writes (journal, settlement, layout) refused: the lease was another host's",
            registry=registry,
        )
        self.routed = Counter(
            "qipai_routed_messages",
            "Messages over Redis by kind and direction",
            ["kind", "direction"],
            registry=registry,
        )
        self.call_seconds = Histogram(
            "qipai_forwarded_call_seconds",
            "A call forwarded to a table's owner, to its reply (seconds)",
            buckets=CALL_BUCKETS,
            registry=registry,
        )
        self.handed_over = Counter(
            "qipai_tables_handed_over",
            "Tables this host gave up at a round boundary while drained by an operator",
            registry=registry,
        )
        self.draining = Gauge(
            "qipai_host_draining", "1 while an operator drains this host", registry=registry
        )
        self.call_failures = Counter(
            "qipai_forwarded_call_failures",
            "Forwarded calls without a reply in time",
            registry=registry,
        )
        self.stray_cashouts = Counter(
            "qipai_stray_stacks_cashed_out",
            "Table stacks of nobody seated in a taken-over table's layout, returned to wallets",
            registry=registry,
        )
        self.invalidations = Counter(
            "qipai_cache_invalidations",
            "Entries of this process's caches dropped because another host announced a change",
            registry=registry,
        )


__all__ = ["ClusterMetrics"]
