"""The law's monitoring (issue 23): indicators computed from what the app holds, aggregates only."""
