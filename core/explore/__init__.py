"""Exploring a station's listeners: the one shared filter type and its evaluation over the snapshot; the filter,
aggregate, completeness, cross-channel and export operations; listener records, the full listener profile and
its interaction timeline."""
