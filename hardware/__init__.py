"""Drivers that turn the physical world into events and images into light; no games here."""
