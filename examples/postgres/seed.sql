-- The shop database of the postgres example, the same data as the sqlite
-- example. Load it with: psql 'postgres://postgres@127.0.0.1:5432/shop?sslmode=disable' -f examples/postgres/seed.sql

CREATE TABLE customers (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    email      TEXT NOT NULL UNIQUE,
    city       TEXT,
    created_at TIMESTAMP NOT NULL
);

CREATE TABLE products (
    id         INTEGER PRIMARY KEY,
    sku        TEXT NOT NULL UNIQUE,
    name       TEXT NOT NULL,
    price      DECIMAL(10, 2) NOT NULL,
    stock      INTEGER NOT NULL,
    attributes JSONB
);

CREATE TABLE orders (
    id          INTEGER PRIMARY KEY,
    customer_id INTEGER NOT NULL REFERENCES customers (id),
    status      TEXT NOT NULL CHECK (status IN ('pending', 'paid', 'shipped', 'cancelled')),
    ordered_at  TIMESTAMP NOT NULL
);

CREATE TABLE order_items (
    order_id   INTEGER NOT NULL REFERENCES orders (id),
    product_id INTEGER NOT NULL REFERENCES products (id),
    quantity   INTEGER NOT NULL CHECK (quantity > 0),
    unit_price DECIMAL(10, 2) NOT NULL,
    PRIMARY KEY (order_id, product_id)
);

INSERT INTO customers (id, name, email, city, created_at) VALUES
    (1, 'Ada Lovelace',    'ada@example.com',     'London',    '2024-01-15 09:30:00'),
    (2, 'Grace Hopper',    'grace@example.com',   'Arlington', '2024-02-03 14:12:00'),
    (3, 'Alan Turing',     'alan@example.com',    'Wilmslow',  '2024-02-20 11:45:00'),
    (4, 'Katherine Johnson', 'katherine@example.com', 'Hampton', '2024-03-08 16:20:00'),
    (5, 'Edsger Dijkstra', 'edsger@example.com',  'Nuenen',    '2024-04-11 08:05:00'),
    (6, 'Barbara Liskov',  'barbara@example.com', 'Boston',    '2024-05-27 13:40:00'),
    (7, 'Donald Knuth',    'don@example.com',     NULL,        '2024-06-02 10:00:00'),
    (8, 'Margaret O''Brien', 'margaret@example.com', 'Dublin', '2024-07-19 17:55:00');

INSERT INTO products (id, sku, name, price, stock, attributes) VALUES
    (1,  'KB-101', 'Mechanical keyboard',   89.90, 25, '{"layout": "ISO", "switches": "brown", "wireless": false}'),
    (2,  'MS-220', 'Wireless mouse',        24.50, 60, '{"dpi": 1600, "wireless": true}'),
    (3,  'MN-270', '27-inch monitor',      279.00,  8, '{"resolution": "2560x1440", "panel": "IPS"}'),
    (4,  'DK-100', 'USB-C dock',           129.99, 12, '{"ports": ["HDMI", "DP", "USB-A", "Ethernet"]}'),
    (5,  'HS-310', 'Noise-cancelling headset', 149.00, 0, '{"wireless": true, "battery_hours": 30}'),
    (6,  'CB-001', 'USB-C cable, 2 m',       9.99, 200, '{"length_m": 2}'),
    (7,  'LS-050', 'Laptop stand',          39.00, 33, '{"material": "aluminium"}'),
    (8,  'WC-900', 'Webcam 4K',            119.00,  5, NULL);

INSERT INTO orders (id, customer_id, status, ordered_at) VALUES
    (1001, 1, 'shipped',   '2024-08-01 10:15:00'),
    (1002, 1, 'paid',      '2024-09-12 19:02:00'),
    (1003, 2, 'shipped',   '2024-08-05 08:44:00'),
    (1004, 3, 'cancelled', '2024-08-09 21:30:00'),
    (1005, 4, 'pending',   '2024-09-20 12:00:00'),
    (1006, 5, 'shipped',   '2024-07-30 15:25:00'),
    (1007, 6, 'paid',      '2024-09-18 09:10:00'),
    (1008, 8, 'pending',   '2024-09-21 18:45:00'),
    (1009, 2, 'paid',      '2024-09-22 07:55:00');

INSERT INTO order_items (order_id, product_id, quantity, unit_price) VALUES
    (1001, 1, 1,  89.90), (1001, 6, 2,  9.99),
    (1002, 3, 2, 279.00),
    (1003, 2, 1,  24.50), (1003, 7, 1, 39.00),
    (1004, 5, 1, 149.00),
    (1005, 4, 1, 129.99), (1005, 6, 3,  9.99),
    (1006, 8, 1, 119.00),
    (1007, 1, 2,  89.90), (1007, 2, 2, 24.50),
    (1008, 7, 1,  39.00),
    (1009, 3, 1, 279.00), (1009, 4, 1, 129.99);
