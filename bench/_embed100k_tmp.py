"""Embedding from nothing at 100k, then 1% touched: bench.search.bench_embeddings on the bench DB left by bench.run."""
import json, shutil
from pathlib import Path
from bench.generate import DEFAULT_OUT, folder_of
from bench.run import Context, markdown
from core import startup
from core.config import Settings
settings = Settings(data_dir=DEFAULT_OUT / "run-100000", database_name="bench_100000", auto_embed=False)
startup.start(settings)
from core.search.models import ListenerEmbedding, EmbeddingCounter
meta = json.loads((folder_of(DEFAULT_OUT, 100000) / "meta.json").read_text())
ListenerEmbedding.objects(company_id=meta["company_id"]).delete()
EmbeddingCounter.objects(company_id=meta["company_id"]).delete()
shutil.rmtree(settings.data_dir / "vectors", ignore_errors=True)
from bench.search import bench_embeddings
ctx = Context(100000, DEFAULT_OUT, settings, meta)
print(markdown([{"size": "100,000", **bench_embeddings(ctx)}]), flush=True)
