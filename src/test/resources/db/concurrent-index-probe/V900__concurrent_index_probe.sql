-- MigrationsTest only: an index migration as every new one must be (docs/POSTGRES-STORE.md, "Migrations").
CREATE INDEX CONCURRENTLY timers_probe ON timers (created_at);
