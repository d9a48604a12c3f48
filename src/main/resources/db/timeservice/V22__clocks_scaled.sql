-- The firing loop's look (V18): the scaled clocks, whose times it reads per clock (few, and in a frame of their own),
-- without reading every clock's row. CONCURRENTLY and alone, as V4.
CREATE INDEX CONCURRENTLY clocks_scaled ON clocks (name) WHERE mode = 'scaled';
