"""The store's tables, and the migrations that bring an older store up to date.

One set of SQL for both back ends: ``{pk}`` is the dialect's auto-increment key and
placeholders are written ``?`` (the PostgreSQL store turns them into ``%s``).  Every
value reaches the database as a bound parameter; table and column names are constants.

Versions
--------
1. The first recorder layout: ``tables`` (id, name, created_at) and ``events`` (table_id,
   seq, line, recorded_at), nothing parsed, no verdicts.
2. Parsed events (type, seat, status with the reason of a rejected line, correction
   ref/who/why, the writer's unique id of the append that makes a retry after a lost
   connection idempotent), matches, deals with their summaries, verdicts (code, facts and the
   sentences in zh and en as the judge wrote them), tournaments, teams,
   players, rounds, the director's audit log and the ``corrections`` view.
3. ``verdicts.confirm``: the verdict is a question to the referee ("please confirm": an
   uncertain camera reading, an observation gap), not an accusation (event-log spec,
   "Judge output").  Stores at version 2 are re-judged once to fill it.
"""

from __future__ import annotations

CURRENT_VERSION = 3

#: The v1 layout, kept to document it and to build v1 stores in tests.
V1_TABLES = (
    "CREATE TABLE schema_version (version INTEGER NOT NULL)",
    "CREATE TABLE tables (id TEXT PRIMARY KEY, name TEXT, created_at TEXT NOT NULL)",
    "CREATE TABLE events (table_id TEXT NOT NULL, seq INTEGER NOT NULL, line TEXT NOT NULL, "
    "recorded_at TEXT NOT NULL, PRIMARY KEY (table_id, seq))",
)

V2_TABLES = (
    """CREATE TABLE tournaments (
        id {pk}, name TEXT NOT NULL UNIQUE, family TEXT NOT NULL,
        pin_salt TEXT, pin_hash TEXT, settings TEXT NOT NULL DEFAULT '{{}}', created_at TEXT NOT NULL)""",
    """CREATE TABLE teams (
        id {pk}, tournament_id BIGINT NOT NULL REFERENCES tournaments(id), name TEXT NOT NULL,
        UNIQUE (tournament_id, name))""",
    """CREATE TABLE players (
        id {pk}, team_id BIGINT NOT NULL REFERENCES teams(id), name TEXT NOT NULL, UNIQUE (team_id, name))""",
    """CREATE TABLE rounds (
        id {pk}, tournament_id BIGINT NOT NULL REFERENCES tournaments(id), number INTEGER NOT NULL,
        name TEXT, created_at TEXT NOT NULL, UNIQUE (tournament_id, number))""",
    """CREATE TABLE card_tables (
        id TEXT PRIMARY KEY, name TEXT, tournament_id BIGINT REFERENCES tournaments(id),
        next_seq INTEGER NOT NULL DEFAULT 0, open_match_id BIGINT, open_deal_id BIGINT,
        created_at TEXT NOT NULL)""",
    """CREATE TABLE matches (
        id {pk}, table_id TEXT NOT NULL REFERENCES card_tables(id), round_id BIGINT REFERENCES rounds(id),
        name TEXT, team_a BIGINT REFERENCES teams(id), team_b BIGINT REFERENCES teams(id),
        seats TEXT NOT NULL DEFAULT '{{}}', started_at TEXT NOT NULL, ended_at TEXT,
        confirmed_at TEXT, confirmed_by TEXT)""",
    """CREATE TABLE deals (
        id {pk}, table_id TEXT NOT NULL REFERENCES card_tables(id), match_id BIGINT REFERENCES matches(id),
        start_seq INTEGER NOT NULL, game TEXT, summary TEXT NOT NULL DEFAULT '{{}}', updated_at TEXT NOT NULL,
        UNIQUE (table_id, start_seq))""",
    """CREATE TABLE events (
        table_id TEXT NOT NULL, seq INTEGER NOT NULL, match_id BIGINT, deal_id BIGINT,
        line TEXT NOT NULL, type TEXT, seat INTEGER, status TEXT NOT NULL, code TEXT, reason TEXT,
        ref INTEGER, who TEXT, why TEXT, source TEXT, recorded_at TEXT NOT NULL, uid TEXT,
        PRIMARY KEY (table_id, seq))""",
    "CREATE UNIQUE INDEX events_uid ON events (table_id, uid)",
    "CREATE INDEX events_match ON events (match_id, seq)",
    "CREATE INDEX events_deal ON events (deal_id, seq)",
    "CREATE INDEX events_ref ON events (table_id, ref)",
    """CREATE TABLE verdicts (
        table_id TEXT NOT NULL, seq INTEGER NOT NULL, ok INTEGER NOT NULL, code TEXT, facts TEXT,
        proven_at INTEGER, message_zh TEXT, message_en TEXT, updated_at TEXT NOT NULL,
        PRIMARY KEY (table_id, seq))""",
    """CREATE TABLE audit (
        id {pk}, at TEXT NOT NULL, actor TEXT, action TEXT NOT NULL, outcome TEXT NOT NULL,
        table_id TEXT, match_id BIGINT, tournament_id BIGINT, detail TEXT NOT NULL DEFAULT '{{}}')""",
    """CREATE VIEW corrections AS
        SELECT c.table_id, c.seq, c.ref, c.who, c.why, c.recorded_at, c.status,
               c.line AS correction, t.line AS original, t.match_id, t.deal_id
        FROM events c LEFT JOIN events t ON t.table_id = c.table_id AND t.seq = c.ref
        WHERE c.type = 'correct'""",
)


def v2_statements(pk: str) -> list[str]:
    return [s.format(pk=pk) for s in V2_TABLES]


#: Version 3 over version 2 (a new store runs both).
V3_STATEMENTS = ("ALTER TABLE verdicts ADD COLUMN confirm INTEGER NOT NULL DEFAULT 0",)


#: Events are append-only: the database itself refuses to change or delete one.
APPEND_ONLY = {
    "sqlite": (
        "CREATE TRIGGER events_no_update BEFORE UPDATE ON events "
        "BEGIN SELECT RAISE(ABORT, 'cardref events are append-only'); END",
        "CREATE TRIGGER events_no_delete BEFORE DELETE ON events "
        "BEGIN SELECT RAISE(ABORT, 'cardref events are append-only'); END",
    ),
    "postgresql": (
        "CREATE FUNCTION cardref_events_append_only() RETURNS trigger LANGUAGE plpgsql AS "
        "$$ BEGIN RAISE EXCEPTION 'cardref events are append-only'; END $$",
        "CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events "
        "FOR EACH ROW EXECUTE FUNCTION cardref_events_append_only()",
    ),
}
