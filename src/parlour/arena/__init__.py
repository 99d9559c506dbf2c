"""The arena: matches and tournaments between bots, in-process or as subprocesses, with time
limits, results, ratings and replay files."""
