-- The helpdesk database of examples/helpdesk: tickets of several tenants,
-- which PostgreSQL itself keeps apart with row-level security. Run it as
-- the owner of the database (it starts over each time):
--
--   psql 'postgres://postgres@127.0.0.1:5432/helpdesk?sslmode=disable' -f examples/helpdesk/schema.sql
--
-- mcpgen logs in as one account, and each call assumes a role:
-- helpdesk_agent (sees its own tenant's tickets) or helpdesk_admin (sees
-- all), with the caller's subject in the setting app.subject.

DROP SCHEMA IF EXISTS helpdesk CASCADE;
CREATE SCHEMA helpdesk;

DO $$ BEGIN CREATE ROLE helpdesk_agent NOLOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$;
DO $$ BEGIN CREATE ROLE helpdesk_admin NOLOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$;
-- The account mcpgen logs in as may assume both (a superuser may anyway).
GRANT helpdesk_agent, helpdesk_admin TO CURRENT_USER;

-- Who belongs to which tenant, by the subject of their tokens.
CREATE TABLE helpdesk.members (
    subject TEXT PRIMARY KEY,
    tenant  TEXT NOT NULL
);

CREATE TABLE helpdesk.tickets (
    id        SERIAL PRIMARY KEY,
    tenant    TEXT NOT NULL,
    title     TEXT NOT NULL,
    opened_by TEXT NOT NULL,
    status    TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed'))
);

-- The caller's tenant: the members row of the subject mcpgen set for the
-- call. SECURITY DEFINER: agents read it without reading members.
CREATE FUNCTION helpdesk.current_tenant() RETURNS TEXT
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog AS $$
    SELECT tenant FROM helpdesk.members WHERE subject = current_setting('app.subject', true)
$$;
REVOKE ALL ON FUNCTION helpdesk.current_tenant() FROM PUBLIC;

ALTER TABLE helpdesk.tickets ENABLE ROW LEVEL SECURITY;
-- An agent sees, and opens, the tickets of its own tenant only.
CREATE POLICY agent_own_tenant ON helpdesk.tickets TO helpdesk_agent
    USING (tenant = helpdesk.current_tenant())
    WITH CHECK (tenant = helpdesk.current_tenant() AND opened_by = current_setting('app.subject', true));
-- An admin sees and closes every ticket.
CREATE POLICY admin_all ON helpdesk.tickets TO helpdesk_admin USING (true);

GRANT USAGE ON SCHEMA helpdesk TO helpdesk_agent, helpdesk_admin;
GRANT EXECUTE ON FUNCTION helpdesk.current_tenant() TO helpdesk_agent, helpdesk_admin;
GRANT SELECT, INSERT ON helpdesk.tickets TO helpdesk_agent;
GRANT USAGE ON SEQUENCE helpdesk.tickets_id_seq TO helpdesk_agent;
GRANT SELECT, UPDATE ON helpdesk.tickets TO helpdesk_admin;

INSERT INTO helpdesk.members VALUES ('mcp-reader', 'acme'), ('mcpgen-rs', 'globex');
INSERT INTO helpdesk.tickets (tenant, title, opened_by) VALUES
    ('acme', 'VPN drops every hour', 'mcp-reader'),
    ('acme', 'Printer on floor 2 jams', 'mcp-reader'),
    ('globex', 'Payroll export fails', 'mcpgen-rs');
