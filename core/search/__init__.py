"""Listener intelligence: embeddings (offline or OpenAI), the vector store (FAISS per station, vectors in MongoDB as
the source of truth), search by meaning, look-alikes, churn risk and the composite profile of a segment."""
