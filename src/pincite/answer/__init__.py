"""Answering: the retrieve-generate-check pipeline and what it returns."""
