"""Django's PostgreSQL backend with the pool's connections checked cheaply (``base``)."""
