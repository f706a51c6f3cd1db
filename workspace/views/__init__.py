"""The staff workspace's own screens: the home ("Pendências") and the health check."""
