"""A second station, written apart from core.demo: Mokgosi FM, its own words, places, tastes and churn (issue 64).

`generate` writes its import files and the truth it knows (bench/other_station/README.md); `queries.json` holds the
labelled queries whose answers are that truth. Search was never designed on it: keep it out of tuning.
"""
