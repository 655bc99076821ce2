"""Churn learned from each station's own history: who goes quiet within the horizon, as a calibrated probability.

Listeners never cancel, they just stop; so the station's past is its training set. At several cut-offs in its history
each listener's behaviour is read as of the cut-off (`features`) and labelled by whether they were heard from in the
horizon after it (`backtest`); a model learns from the older cut-offs and is judged on the newest against days since
the last interaction and BG/NBD (`bgnbd`), which are fitted the same way. The station is scored by whichever ranks
best there, calibrated, and says which and how well (`model`, kept in MongoDB by `store`).
"""
