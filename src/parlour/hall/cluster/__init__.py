"""Several hall processes as one hall: the fan-out between them (Redis) and, later, room ownership.

Nothing here is imported by the single-process hall on SQLite; see docs/scaling.md for what is
built and what is designed only.
"""
