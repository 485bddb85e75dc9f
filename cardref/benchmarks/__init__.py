"""Benchmarks that print figures (run through `cardref bench`)."""
