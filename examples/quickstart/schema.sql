-- The shop's schema, as the team declares it.
--
-- The block comment after each name is chant's ownership marker: SQLite keeps it in the
-- stored CREATE statement, so whoever applies this file stamps the objects as this
-- project's (stack shop, environment dev). chant reads it back to tell what is ours.

CREATE TABLE customers /* [chant managed-by=chant stack=shop env=dev] */ (
    id INTEGER PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    name TEXT
);

CREATE TABLE orders /* [chant managed-by=chant stack=shop env=dev] */ (
    id INTEGER PRIMARY KEY,
    customer_id INTEGER NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    total NUMERIC NOT NULL DEFAULT 0 CHECK (total >= 0),
    placed_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP
);

CREATE INDEX orders_by_customer /* [chant managed-by=chant stack=shop env=dev] */ ON orders (customer_id);

CREATE TABLE invoices /* [chant managed-by=chant stack=shop env=dev] */ (
    id INTEGER PRIMARY KEY,
    order_id INTEGER NOT NULL REFERENCES orders (id),
    amount NUMERIC NOT NULL
);

CREATE VIEW big_orders /* [chant managed-by=chant stack=shop env=dev] */ AS
    SELECT id, customer_id, total FROM orders WHERE total > 100;
