"""Alerts on a station's segment history: the rules a producer saves, their checks after each full run and daily,
the firings kept, and their delivery by e-mail digest and webhook."""
