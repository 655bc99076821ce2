"""A station's segments over time: a point per full run (its counts, the moves since the run before, listeners new
and lost), and its past rebuilt week by week from its interactions; read by interval for the trends and the alerts."""
