"""The public site's views (anonymous), one module per screen family."""
