"""Matches between engines, ratings, tournaments."""
