"""PostgreSQL backend (``pip install -e '.[postgres]'`` in a clone): psycopg 3 and pgvector."""

from pincite.store.postgres.store import PostgresStore

__all__ = ["PostgresStore"]
