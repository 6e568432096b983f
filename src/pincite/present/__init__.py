"""Presentation: answers and citations as numbered text, JSON and source lists."""
