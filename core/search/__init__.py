"""Search: embeddings (offline or OpenAI), the vector store (FAISS per station, vectors in MongoDB as the source of
truth), the station's own words understood, lexical and dense retrieval fused and calibrated; look-alikes by
behaviour vectors (the representation the AI's votes share), calibrated on what alike means."""
