"""Playing a match's games on more than one machine, through Dask distributed (``pip install
.[cluster]``; optional: one machine, ``runner.run_match``'s threads, stays the default).

    # on one machine: a scheduler; on every machine: workers with one thread each
    dask scheduler                       # prints tcp://HOST:8786
    dask worker tcp://HOST:8786 --nworkers 2 --nthreads 1
    vargo-match "vargo --playouts 300" "vargo --playouts 100" --games 200 \\
        --cluster tcp://HOST:8786 --out runs/big

    # or a cluster of worker processes on this machine (tests, trying it out)
    vargo-match ... --cluster local:2

Every game is one task (``play_remote``): a worker plays it with engines it starts itself
(the engine command lines must work on every worker, and the project must be installed there,
at the same version), in a scratch directory of its own, and sends back the game's record, its
SGF and its GTP transcript; the client writes them into ``--out`` and ``results.json`` as a
local match does, so resuming, the summary and the files are the same. A worker keeps its
engines from game to game, as a local seat does (engines whose command has ``{seed}`` or
``{game}`` are started afresh for every game). Each engine's stderr stays in the worker's
scratch directory (its path is in the record's ``worker`` entry). Games are deterministic for
the same seeds and engine settings, so a cluster plays the same games as one machine.

One worker thread per worker process: engines are processes that use the cores themselves.
"""

import os
import socket
import tempfile
import threading
from dataclasses import replace
from pathlib import Path
from typing import Dict, Optional, Tuple

from ..files import write_atomically

LOCAL_PREFIX = "local:"

_worker_lock = threading.Lock()
_worker_seats: Dict[str, object] = {}        #: per worker process: match identity -> Seat
_worker_dir: Optional[Path] = None


class ClusterUnavailable(Exception):
    """Dask distributed is not installed, or the scheduler cannot be reached."""


def require_distributed() -> None:
    """ClusterUnavailable, with the pip command that mends it, when Dask distributed (the
    ``cluster`` extra) is not installed; the runner asks before it starts any engine."""
    try:
        import distributed  # noqa: F401
    except ImportError as err:
        raise ClusterUnavailable("--cluster needs Dask distributed, the cluster extra: pip install "
                                 "'variant-go-engine[cluster]' (or pip install -e \".[cluster]\" in a "
                                 "checkout)") from err


def connect(address: str):
    """(client, local cluster or None) for ``address``: ``local:N`` starts N worker processes
    on this machine, anything else is a scheduler address (``tcp://host:8786``)."""
    require_distributed()
    from distributed import Client, LocalCluster
    cluster = None
    try:
        if address.startswith(LOCAL_PREFIX):
            workers = address[len(LOCAL_PREFIX):]
            if not workers.isdigit() or int(workers) < 1:
                raise ClusterUnavailable(f"--cluster local:N needs a number of workers, not {address!r}")
            cluster = LocalCluster(n_workers=int(workers), threads_per_worker=1, processes=True,
                                   dashboard_address=None)
            return Client(cluster), cluster
        return Client(address, timeout="30s"), None
    except ClusterUnavailable:
        raise
    except Exception as err:  # noqa: BLE001 - distributed raises OSError, TimeoutError, ...
        if cluster is not None:
            cluster.close()
        raise ClusterUnavailable(f"cannot reach the cluster {address!r}: {err}") from err


def _scratch() -> Path:
    global _worker_dir
    if _worker_dir is None:
        _worker_dir = Path(tempfile.mkdtemp(prefix="vargo-match-worker-"))
    return _worker_dir


def play_remote(config, index: int, seat_factory, play_one) -> dict:
    """On a worker: play game ``index`` of the match ``config`` with ``play_one(config, seat,
    index, stopping)`` on a seat made by ``seat_factory(config, number)`` (the runner's, passed
    in so that imports point from the runner to here), and return its record, the engines'
    names, the SGF bytes (or None) and the GTP transcript."""
    with _worker_lock:  # one game at a time per worker process (one thread anyway)
        import json
        local = replace(config, out=_scratch(), cluster=None)
        key = json.dumps(config.identity(), sort_keys=True)
        seat = _worker_seats.get(key)
        if seat is None:
            seat = _worker_seats[key] = seat_factory(local, len(_worker_seats))
        finished = play_one(local, seat, index, threading.Event())
        record, names = finished
        sgf_data = None
        if record.get("sgf"):
            path = local.out / record["sgf"]
            sgf_data = path.read_bytes()
            path.unlink()
        log_path = local.out / "logs" / f"game-{index + 1:04d}.gtp.log"
        transcript = log_path.read_text() if log_path.exists() else ""
        if log_path.exists():
            log_path.unlink()
        record["worker"] = f"{socket.gethostname()}:{os.getpid()} {local.out}"
        return {"record": record, "names": names, "sgf": sgf_data, "transcript": transcript}


def receive(config, result: dict) -> Tuple[dict, Dict[str, str]]:
    """On the client: write a finished game's SGF and transcript into ``config.out``."""
    record = result["record"]
    if result["sgf"] is not None:
        write_atomically(config.out / record["sgf"], result["sgf"])
    logs = config.out / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    write_atomically(logs / f"game-{record['index'] + 1:04d}.gtp.log", result["transcript"])
    return record, result["names"]


def play_on_cluster(config, pending, finished, seat_factory, play_one) -> None:
    """Play the ``pending`` games of ``config`` on its cluster, each by ``play_remote`` with
    ``seat_factory`` and ``play_one``; ``finished(record, names)`` is called on the client as
    each game comes back, and when it returns True (the match's sequential test has decided)
    the rest is cancelled. KeyboardInterrupt cancels it too."""
    client, cluster = connect(config.cluster)
    from distributed import as_completed
    try:
        futures = [client.submit(play_remote, config, index, seat_factory, play_one, pure=False,
                                 key=f"vargo-game-{index + 1}-{os.getpid()}-{id(config)}")
                   for index in pending]
        try:
            for future in as_completed(futures):
                if finished(*receive(config, future.result())):  # decided: the rest is not needed
                    client.cancel(futures)
                    break
        except BaseException:
            client.cancel(futures)
            raise
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
