"""The phones' web panel: pages, JSON API and live updates over the daemon's session API."""
