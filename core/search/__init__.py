"""Finding listeners by meaning: the vector store (FAISS, with embeddings in MongoDB as the source of truth)."""
