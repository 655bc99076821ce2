"""Stations (companies): their defaults, settings, channel names and weekly schedule of shows, created on first
sight by any import."""
