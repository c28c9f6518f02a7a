-- What the dev database really holds: schema.sql, drifted.
--   * invoices was never created                        -> plan: create
--   * orders.total was created INTEGER, not NUMERIC      -> plan: update (replace)
--   * carts is ours (our marker) but no longer declared  -> plan: delete
--   * analytics_events was made by another tool         -> plan: adopt
--   * big_orders is exactly as declared                 -> plan: noop
PRAGMA page_size = 1024;

CREATE TABLE customers /* [chant managed-by=chant stack=shop env=dev] */ (
    id INTEGER PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    name TEXT
);

CREATE TABLE orders /* [chant managed-by=chant stack=shop env=dev] */ (
    id INTEGER PRIMARY KEY,
    customer_id INTEGER NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    total INTEGER NOT NULL DEFAULT 0 CHECK (total >= 0),
    placed_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP
);

CREATE INDEX orders_by_customer /* [chant managed-by=chant stack=shop env=dev] */ ON orders (customer_id);

CREATE VIEW big_orders /* [chant managed-by=chant stack=shop env=dev] */ AS
    SELECT id, customer_id, total FROM orders WHERE total > 100;

CREATE TABLE carts /* [chant managed-by=chant stack=shop env=dev] */ (
    id INTEGER PRIMARY KEY,
    customer_id INTEGER NOT NULL
);

CREATE TABLE analytics_events (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    at TEXT NOT NULL
);

INSERT INTO customers (id, email, name) VALUES
    (1, 'ada@example.com', 'Ada'),
    (2, 'grace@example.com', 'Grace');
INSERT INTO orders (id, customer_id, total, placed_at) VALUES
    (1, 1, 42, '2026-01-05 10:00:00'),
    (2, 2, 180, '2026-01-06 11:30:00');
INSERT INTO carts (id, customer_id) VALUES (1, 2);
INSERT INTO analytics_events (id, name, at) VALUES (1, 'signup', '2026-01-05 09:58:00');
