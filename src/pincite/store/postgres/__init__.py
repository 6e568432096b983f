"""PostgreSQL backend (``pip install 'pincite[postgres]'``): psycopg 3 and pgvector."""

from pincite.store.postgres.store import PostgresStore

__all__ = ["PostgresStore"]
