CREATE TABLE IF NOT EXISTS orders (
  id INTEGER PRIMARY KEY,
  customer TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'paid', 'shipped')),
  total REAL NOT NULL,
  ordered_at TEXT NOT NULL
);
INSERT OR IGNORE INTO orders VALUES
  (1, 'Ada Lovelace', 'paid', 120.50, '2026-10-01'),
  (2, 'Alan Turing', 'shipped', 42.00, '2026-10-03'),
  (3, 'Grace Hopper', 'pending', 310.25, '2026-10-07'),
  (4, 'Edsger <Dijkstra>', 'paid', 9.99, '2026-10-09'),
  (5, 'Barbara Liskov', 'shipped', 75.10, '2026-10-12');
