-- Push delivery (issue 32): a clock with delivery 'push' POSTs its deliveries to a target kept on its row. The
-- target's parts are plain columns (the store reads them without a JSON library); the secrets are kept as given,
-- since signing needs them (protect the database as the secrets' holder). A clock has a target exactly when it pushes.
ALTER TABLE clocks DROP CONSTRAINT clocks_delivery_check;
ALTER TABLE clocks ADD CONSTRAINT clocks_delivery_check CHECK (delivery IN ('response', 'queue', 'push'));
ALTER TABLE clocks
    ADD COLUMN push_url           text,
    ADD COLUMN push_timeout       bigint,
    ADD COLUMN push_concurrency   integer,
    ADD COLUMN push_header_names  text[],
    ADD COLUMN push_header_values text[],
    ADD COLUMN push_secrets       text[];
ALTER TABLE clocks ADD CONSTRAINT clocks_push_target CHECK ((delivery = 'push') = (push_url IS NOT NULL));
