"""The offline model: the same vectors whether a call's batches run in threads or in worker processes."""
from __future__ import annotations

import numpy as np

from core.search import local_model
from core.search.embeddings import embedder


def test_worker_processes_give_the_vectors_threads_give_in_the_callers_order(monkeypatch):
    texts = [f"listener {i} loves {'gospel' if i % 3 else 'soccer'} on the breakfast show" * (1 + i % 4)
             for i in range(300)]
    model = embedder()
    in_threads = model.embed(texts)
    monkeypatch.setattr(local_model, "PROCESSES_FROM", 1)
    monkeypatch.setattr(local_model, "WORKERS", 2)
    in_processes = model.embed(texts)
    assert in_processes.shape == (300, local_model.DIM)
    assert np.allclose(in_processes, in_threads, atol=1e-5)
    assert np.allclose(np.linalg.norm(in_processes, axis=1), 1, atol=1e-5)
    assert not np.allclose(in_processes[0], in_processes[1])


FORKED = """
import os, sys
import numpy as np
from core.search import local_model
local_model.preload()
table = local_model._preloaded._model.table
read, write = os.pipe()
if os.fork() == 0:
    vector = local_model.LocalEmbedder().embed(["shared weights"])[0]
    start, end = table.ctypes.data, table.ctypes.data + table.nbytes
    shared = private = 0
    lines = open("/proc/self/smaps").read().splitlines()
    for at, line in enumerate(lines):
        head = line.split()[0]
        if "-" in head and not head.endswith(":"):
            low, high = (int(x, 16) for x in head.split("-"))
            if low < end and high > start:
                fields = {l.split(":")[0]: int(l.split()[1]) for l in lines[at + 1:at + 12] if "kB" in l}
                shared += fields["Shared_Dirty"]
                private += fields["Private_Dirty"]
    os.write(write, f"{shared} {private} {vector[:3].round(4).tolist()}".encode())
    os._exit(0)
os.wait()
print(os.read(read, 1000).decode())
"""


def test_weights_preloaded_before_a_fork_are_shared_by_the_child_and_embed_the_same():
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", FORKED], capture_output=True, text=True, check=True).stdout.split(
        " ", 2)
    shared_kb, private_kb = int(out[0]), int(out[1])
    assert shared_kb > 50_000 and private_kb < shared_kb / 10  # the 65 MB embedding table stays the parent's pages
    expected = np.round(local_model.LocalEmbedder().embed(["shared weights"])[0][:3], 4).tolist()
    assert out[2].strip() == str(expected)
