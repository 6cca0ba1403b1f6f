"""distro/build's parts, one job per module (distro/build runs them)."""
