"""Domain of the Listener Segmentation Service: every rule lives here, nothing of Flask does."""
