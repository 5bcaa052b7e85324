"""The Dask calls stkdist makes, in one place: distributed's Client, LocalCluster and
as_completed carry no annotations, so their calls are the only untyped ones (each marked)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any


def connect(
    scheduler: str | None, workers: int, stack: ExitStack, tls: tuple[str, str, str] | None = None
) -> Any:
    """A client of the scheduler at `scheduler`, or of a local cluster of `workers` single-thread
    processes on 127.0.0.1 (no dashboard: nothing listens beyond loopback). `tls`: (CA file,
    certificate, key) of a TLS scheduler (tls://HOST:PORT); the connection is then encrypted
    and both sides authenticated by certificates the CA signed (Dask's Security)."""
    from distributed import Client, LocalCluster
    from distributed.security import Security

    if scheduler:
        security = None
        if tls:
            ca, cert, key = tls
            security = Security(  # type: ignore[no-untyped-call]
                tls_ca_file=ca, tls_client_cert=cert, tls_client_key=key, require_encryption=True
            )
        return stack.enter_context(
            Client(scheduler, timeout=30, security=security)  # type: ignore[no-untyped-call]
        )
    cluster = stack.enter_context(
        LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
        )
    )
    return stack.enter_context(Client(cluster))  # type: ignore[no-untyped-call]


class Completed:
    """Futures in the order they finish; more may be added while iterating."""

    def __init__(self, futures: list[Any]) -> None:
        from distributed import as_completed

        self._it = as_completed(futures)  # type: ignore[no-untyped-call]

    def add(self, future: Any) -> None:
        self._it.add(future)  # type: ignore[no-untyped-call]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._it)
