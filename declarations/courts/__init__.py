"""Court orders as records (issue 22): the CNJ case number, the order's record and its effects."""
