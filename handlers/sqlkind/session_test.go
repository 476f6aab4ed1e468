package sqlkind_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/handlers/handlertest"
)

// authServer is a server whose callers authenticate, with a typed claim.
const authServer = `version: 1
server: {http: {auth: {api_keys: [{name: t, key: test-key-0123456789}], claims: {tenant: string, level: integer}}}}
`

// sessionConfig is a postgres backend with session and one tool; it is
// opened without connecting.
func sessionConfig(driver, session, tool string) string {
	dsn := map[string]string{"postgres": "postgres://u@127.0.0.1:1/x", "mysql": "u@tcp(127.0.0.1:1)/x", "sqlite": ":memory:"}[driver]
	return authServer + `backends:
  db:
    kind: sql
    driver: ` + driver + `
    dsn: "` + dsn + `"
` + indent(session, "    ") + `tools:
  - name: t
    description: d
    args: [{name: x}]
    handler:
      backend: db
      query: SELECT 1 AS one
` + indent(tool, "      ")
}

func indent(s, by string) string {
	if s == "" {
		return ""
	}
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return by + strings.Join(lines, "\n"+by) + "\n"
}

// TestSessionDiagnostics: what a session may not say is refused when the
// config loads, where it is written.
func TestSessionDiagnostics(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, driver, backend, tool, want string }{
		{"sqlite", "sqlite", "session: {settings: {app.user: \"${{ auth.subject }}\"}}", "",
			"backends.db.session: SQLite has no roles or settings to tell it who calls; bind the caller into the query instead"},
		{"sqlite tool", "sqlite", "", "session: {settings: {app.user: \"${{ auth.subject }}\"}}",
			"tools[0].handler.session: SQLite has no roles"},
		{"empty", "postgres", "session: {}", "", "backends.db.session: give role, settings or both"},
		{"role without allow-list", "postgres", "session: {role: \"${{ auth.claims.tenant }}\"}", "",
			"backends.db.session.roles: list the roles a call may assume"},
		{"allow-list without role", "postgres", "session: {roles: [a], settings: {app.u: x}}", "",
			"backends.db.session.roles: roles is the list of roles `role` may name; give role too"},
		{"constant role not allowed", "postgres", "session: {role: admin, roles: [reader]}", "",
			`backends.db.session.role: role "admin" is not in roles [reader]`},
		{"role of another type", "postgres", "session: {role: \"${{ auth.claims.level * 2 }}\", roles: [reader]}", "",
			"backends.db.session.role: a role is a name (string), and this yields integer"},
		{"role on mysql", "mysql", "session: {role: \"${{ auth.subject }}\", roles: [reader]}", "",
			"backends.db.session.role: MySQL and MariaDB roles add privileges to the connection's user and cannot take any away"},
		{"empty role name", "postgres", "session: {role: \"${{ auth.subject }}\", roles: [\"\"]}", "",
			`backends.db.session.roles[0]: "" is not a role name`},
		{"built-in setting", "postgres", "session: {settings: {role: \"${{ auth.subject }}\"}}", "",
			`backends.db.session.settings.role: "role" is not a custom setting: name it PREFIX.NAME`},
		{"setting name with a quote", "postgres", "session: {settings: {\"app.u'x\": \"${{ auth.subject }}\"}}", "",
			`is not a custom setting`},
		{"variable name with a backtick", "mysql", "session: {settings: {\"a`b\": \"${{ auth.subject }}\"}}", "",
			"is not a user variable's name"},
		{"unknown auth field", "postgres", "session: {settings: {app.u: \"${{ auth.subjet }}\"}}", "",
			"backends.db.session.settings.app.u"},
		{"typed claim misused", "postgres", "session: {settings: {app.u: \"${{ auth.claims.tenant + 1 }}\"}}", "",
			"backends.db.session.settings.app.u"},
		{"arguments at the backend", "postgres", "session: {settings: {app.u: \"${{ args.x }}\"}}", "",
			"backends.db.session.settings.app.u"},
		{"arguments at the tool", "postgres", "", "session: {settings: {app.u: \"${{ args.x }}\"}}",
			"tools[0].handler.session.settings.app.u: a session says who calls, and `args` is chosen by the model"},
		{"role from arguments", "postgres", "", "session: {role: \"${{ args.x }}\", roles: [a]}",
			"tools[0].handler.session.role: a session says who calls, and `args` is chosen by the model"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ds := handlertest.Diagnose(t, registry(), sessionConfig(tt.driver, tt.backend, tt.tool))
			if !strings.Contains(ds.Error(), tt.want) {
				t.Errorf("got\n%v\nwant a diagnostic containing %q", ds, tt.want)
			}
		})
	}
}

// TestSessionAccepted: the sessions people write build, on PostgreSQL
// and MySQL, at the backend and at a tool.
func TestSessionAccepted(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, driver, backend, tool string }{
		{"postgres role and settings", "postgres", `session:
  roles: [app_user, app_admin]
  role: '${{ "admin" in auth.scopes ? "app_admin" : "app_user" }}'
  settings:
    app.user_id: "${{ auth.subject }}"
    app.tenant: "${{ auth.claims.tenant }}"
    app.scopes: "${{ auth.scopes }}"
    app.level: "${{ auth.claims.level ?? 0 }}"
    app.source: mcpgen`, ""},
		{"constant role", "postgres", "session: {role: app_user, roles: [app_user]}", ""},
		{"mysql variables", "mysql", "session: {settings: {app_user: \"${{ auth.subject }}\", app.tenant: \"${{ auth.claims.tenant }}\"}}", ""},
		{"tool's own", "postgres", "", "session: {settings: {app.user_id: \"${{ auth.subject }}\"}}"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if ds := handlertest.Diagnose(t, registry(), sessionConfig(tt.driver, tt.backend, tt.tool)); len(ds) > 0 {
				t.Errorf("got\n%v\nwant none", ds)
			}
		})
	}
}

// TestSessionNeedsCaller: a session over the caller needs callers that
// authenticate, and a tool using it refuses calls without one; a
// resource, which has no caller, cannot use such a backend.
func TestSessionNeedsCaller(t *testing.T) {
	t.Parallel()
	noAuth := strings.Replace(sessionConfig("postgres", "session: {settings: {app.u: \"${{ auth.subject }}\"}}", ""), authServer, "version: 1\n", 1)
	if ds := handlertest.Diagnose(t, registry(), noAuth); !strings.Contains(ds.Error(),
		"backends.db.session: the session is set from the caller, and server.http.auth is not configured") {
		t.Errorf("without auth:\n%v", ds)
	}
	resource := sessionConfig("postgres", "session: {settings: {app.u: \"${{ auth.subject }}\"}}", "") + `resources:
  - {uri: "db://x", name: x, handler: {backend: db, query: SELECT 1 AS one}}
`
	if ds := handlertest.Diagnose(t, registry(), resource); !strings.Contains(ds.Error(),
		"resources[0].handler.backend: the backend sets the database session from the caller, and this handler has no caller") {
		t.Errorf("a resource:\n%v", ds)
	}
	shared := strings.Replace(sessionConfig("postgres", "session: {settings: {app.u: \"${{ auth.subject }}\"}}", ""),
		"    handler:\n", "    cache: {ttl: 30s, per_caller: false}\n    handler:\n", 1)
	if ds := handlertest.Diagnose(t, registry(), shared); !strings.Contains(ds.Error(),
		"tools[0].cache.per_caller: the tool reads `auth`: its results depend on the caller") {
		t.Errorf("a cache shared by callers:\n%v", ds)
	}
	srv := handlertest.Build(t, registry(), sessionConfig("postgres", "session: {settings: {app.u: \"${{ auth.subject }}\"}}", ""), nil)
	res := handlertest.Call(t, context.Background(), srv, "t", `{}`)
	if !res.IsError || !strings.Contains(handlertest.Text(res), "acts for the authenticated caller, and the request has none") {
		t.Errorf("a call without a caller: %s", handlertest.Text(res))
	}
	own := handlertest.Build(t, registry(), sessionConfig("postgres", "", "session: {settings: {app.u: \"${{ auth.subject }}\"}}"), nil)
	if res := handlertest.Call(t, context.Background(), own, "t", `{}`); !res.IsError ||
		!strings.Contains(handlertest.Text(res), "acts for the authenticated caller, and the request has none") {
		t.Errorf("a call without a caller of a tool with its own session: %s", handlertest.Text(res))
	}
	// a constant session acts for nobody: no caller needed
	if ds := handlertest.Diagnose(t, registry(), strings.Replace(sessionConfig("postgres", "session: {settings: {app.source: mcpgen}}", ""),
		authServer, "version: 1\n", 1)); len(ds) > 0 {
		t.Errorf("a constant session:\n%v", ds)
	}
}

// TestSessionRoleRefusedFirst: a role outside the allow-list refuses the
// call before any connection is made; the database here does not even
// answer, which a role in the list finds out.
func TestSessionRoleRefusedFirst(t *testing.T) {
	t.Parallel()
	srv := handlertest.Build(t, registry(), sessionConfig("postgres",
		"session: {roles: [app_user], role: \"${{ auth.claims.tenant }}\"}", ""), nil)
	for role, want := range map[string]string{
		"postgres":                     `session role: "postgres" is not one of the roles this tool may assume`,
		"app_user\"; DROP TABLE x; --": `session role: "app_user\"; DROP TABLE x; --" is not one of the roles`,
		strings.Repeat("r", 100):       "session role: a name of 100 bytes is not one of the roles",
		"app_user":                     "the database is unavailable",
	} {
		res := handlertest.Call(t, caller("u", map[string]any{"tenant": role}), srv, "t", `{}`)
		if got := handlertest.Text(res); !res.IsError || !strings.Contains(got, want) {
			t.Errorf("role %.30q: %s, want %q", role, got, want)
		}
	}
}
