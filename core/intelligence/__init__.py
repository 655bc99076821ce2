"""Listener intelligence: what the service reads out of a station's listeners for a producer (a listener's churn risk
in words, the station's churn backtest, a segment's profile against the station), above the data and its rules."""
