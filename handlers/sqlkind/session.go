package sqlkind

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/expr-lang/expr/types"
	"github.com/jackc/pgx/v5"
	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/eval"
	"github.com/mcpgen/mcpgen/spec"
)

// Session makes the database see the caller of each call, so that its own
// rules (PostgreSQL row-level security policies, grants, views) apply to
// that caller and not to the pooled account. It is set at the start of
// every call and gone when the call ends, whatever way it ends.
type Session struct {
	// Role is the database role the call assumes, an expression over the
	// caller such as `${{ "admin" in auth.scopes ? "app_admin" : "app_user" }}`:
	// `SET LOCAL ROLE` inside the call's transaction. It must be one of
	// `roles`, checked before the database sees it. PostgreSQL only: MySQL
	// and MariaDB roles add privileges to the connection's user and
	// cannot narrow them.
	Role *spec.Value `yaml:"role,omitempty"`
	// Roles are the only roles a call may assume: a role outside this
	// list refuses the call before anything is sent to the database.
	// The connection's user must be a member of each (GRANT app_user TO
	// mcpgen_login).
	Roles []string `yaml:"roles,omitempty"`
	// Settings are values for the database to read during the call, by
	// name, usually from the caller: `app.user_id: "${{ auth.subject }}"`.
	// On PostgreSQL each is a custom setting named PREFIX.NAME, set with
	// set_config(name, value, true) inside the call's transaction and read
	// with current_setting('app.user_id', true). On MySQL and MariaDB each
	// is a user variable (@`app.user_id`) for views and definer routines to
	// read, set when the call starts and set to NULL when it ends. Values
	// are bound, never spliced: text as is, numbers and booleans as text,
	// lists (auth.scopes) and objects as JSON. A value the caller does not
	// provide (nil) refuses the call; write `?? ""` for an empty default.
	Settings map[string]*spec.Value `yaml:"settings,omitempty"`
}

// Limits on what a caller's identity may put in a session.
const (
	maxSettingName  = 63       // PostgreSQL's and MySQL's identifier length
	maxSettingValue = 64 << 10 // no real claim comes near it
)

var (
	// pgSetting is a PostgreSQL custom setting: PREFIX.NAME. PostgreSQL's
	// own settings (role, search_path, transaction_read_only) have no dot,
	// so none of them can be set from a caller.
	pgSetting = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$`)
	// myVariable is a MySQL user variable's name, as written after @.
	myVariable = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$`)
)

// identity is a compiled Session: what a call sets, and how.
type identity struct {
	role       *eval.Value // nil: no role assumed
	roles      []string
	names      []string      // settings, sorted
	values     []*eval.Value // by names
	usesCaller bool          // an expression reads `auth`
	setSQL     string        // sets every setting from bound values
	resetSQL   string        // MySQL: sets every variable to NULL
}

// callIdentity is an identity evaluated for one call.
type callIdentity struct {
	role   string // "" for none; always one of identity.roles
	values []any  // the statement's bound values: names and values on postgres, values on mysql
	id     *identity
}

// compileSession checks a Session and compiles its expressions with vars
// (nil for a tool's handler, whose env knows `auth` already).
func compileSession(env handlers.BuildEnv, field string, s *Session, d *dialect, vars types.Map) *identity {
	if d == sqliteDialect {
		env.Diag(field, `SQLite has no roles or settings to tell it who calls; bind the caller into the query instead: `+
			`WHERE owner = :owner with params: {owner: "${{ auth.subject }}"}`)
		return nil
	}
	if s.Role.IsZero() && len(s.Settings) == 0 {
		env.Diag(field, "give role, settings or both")
		return nil
	}
	id := &identity{roles: s.Roles}
	id.compileRole(env, field, s, d, vars)
	for _, name := range sortedNames(s.Settings) {
		f := field + ".settings." + name
		if !settingName(env, f, name, d) {
			continue
		}
		v := env.Compile(f, s.Settings[name], vars)
		if v == nil || !fromCaller(env, f, v) {
			continue
		}
		id.names = append(id.names, name)
		id.values = append(id.values, v)
		id.usesCaller = id.usesCaller || v.Uses("auth")
	}
	if env.Failed() {
		return nil
	}
	id.statements(d)
	return id
}

// compileRole checks the role and its allow-list.
func (id *identity) compileRole(env handlers.BuildEnv, field string, s *Session, d *dialect, vars types.Map) {
	switch {
	case !s.Role.IsZero() && d == mysqlDialect:
		env.Diag(field+".role", "MySQL and MariaDB roles add privileges to the connection's user and cannot take any away, "+
			"so a role cannot narrow what a call sees; set settings that views and definer routines read")
		return
	case s.Role.IsZero() && len(s.Roles) > 0:
		env.Diag(field+".roles", "roles is the list of roles `role` may name; give role too")
		return
	case s.Role.IsZero():
		return
	case len(s.Roles) == 0:
		env.Diag(field+".roles", "list the roles a call may assume (roles: [app_user, app_admin]); role must name one of them")
	}
	for i, r := range s.Roles {
		if r == "" || strings.ContainsRune(r, 0) || len(r) > maxSettingName {
			env.Diag(fmt.Sprintf("%s.roles[%d]", field, i), fmt.Sprintf("%q is not a role name: 1 to %d characters, no NUL", r, maxSettingName))
		}
	}
	v := env.Compile(field+".role", s.Role, vars)
	if v == nil || !fromCaller(env, field+".role", v) {
		return
	}
	if sh := v.Shape(); sh != nil && sh.Type != "" && sh.Type != "string" {
		env.Diag(field+".role", fmt.Sprintf("a role is a name (string), and this yields %s", sh.Type))
		return
	}
	if v.IsConst() {
		if r, _ := v.Eval(nil); !slices.Contains(s.Roles, fmt.Sprint(r)) {
			env.Diag(field+".role", fmt.Sprintf("role %q is not in roles %v", fmt.Sprint(r), s.Roles))
			return
		}
	}
	id.role = v
	id.usesCaller = id.usesCaller || v.Uses("auth")
}

// fromCaller refuses expressions over what the model chooses: a session
// says who calls, which no argument may change.
func fromCaller(env handlers.BuildEnv, field string, v *eval.Value) bool {
	for _, name := range []string{"args", "steps", "item"} {
		if v.Uses(name) {
			env.Diag(field, fmt.Sprintf("a session says who calls, and `%s` is chosen by the model; use auth.subject, auth.scopes or auth.claims", name))
			return false
		}
	}
	return true
}

// settingName checks the name of a setting for the dialect.
func settingName(env handlers.BuildEnv, field, name string, d *dialect) bool {
	switch {
	case len(name) > maxSettingName:
		env.Diag(field, fmt.Sprintf("a setting's name has at most %d characters", maxSettingName))
	case d == postgresDialect && !pgSetting.MatchString(name):
		env.Diag(field, fmt.Sprintf("%q is not a custom setting: name it PREFIX.NAME, e.g. app.user_id "+
			"(letters, digits and _); PostgreSQL's own settings cannot be set from a caller", name))
	case d == mysqlDialect && !myVariable.MatchString(name):
		env.Diag(field, fmt.Sprintf("%q is not a user variable's name: letters, digits, _ and dots, e.g. app_user", name))
	default:
		return true
	}
	return false
}

// statements writes the statements that set and reset the settings. Only
// names checked by settingName are written into them; values are bound.
func (id *identity) statements(d *dialect) {
	if len(id.names) == 0 {
		return
	}
	var set, reset []string
	for i, name := range id.names {
		if d == postgresDialect {
			set = append(set, fmt.Sprintf("set_config($%d, $%d, true)", 2*i+1, 2*i+2))
			continue
		}
		set = append(set, "@`"+name+"` = ?")
		reset = append(reset, "@`"+name+"` = NULL")
	}
	if d == postgresDialect {
		id.setSQL = "SELECT " + strings.Join(set, ", ")
		return
	}
	id.setSQL = "SET " + strings.Join(set, ", ")
	id.resetSQL = "SET " + strings.Join(reset, ", ")
}

// eval computes a call's role and settings, refusing before the database
// sees anything a role outside the allow-list and values that cannot be
// sent as they are.
func (id *identity) eval(vars map[string]any, d *dialect) (*callIdentity, error) {
	if id == nil {
		return nil, nil
	}
	c := &callIdentity{id: id}
	if id.role != nil {
		r, err := id.role.Eval(vars)
		if err != nil {
			return nil, fmt.Errorf("session role: %w", err)
		}
		s, ok := r.(string)
		if !ok || !slices.Contains(id.roles, s) {
			return nil, fmt.Errorf("session role: %s is not one of the roles this tool may assume", describe(r))
		}
		c.role = s
	}
	for i, name := range id.names {
		x, err := id.values[i].Eval(vars)
		if err != nil {
			return nil, fmt.Errorf("session setting %s: %w", name, err)
		}
		text, err := settingText(x)
		if err != nil {
			return nil, fmt.Errorf("session setting %s: %w", name, err)
		}
		if d == postgresDialect {
			c.values = append(c.values, name)
		}
		c.values = append(c.values, text)
	}
	return c, nil
}

// describe names a refused role without repeating a long or hostile
// value whole.
func describe(x any) string {
	s, ok := x.(string)
	if !ok {
		return fmt.Sprintf("a value of type %T", x)
	}
	if len(s) > 40 || strings.ContainsFunc(s, func(r rune) bool { return r < ' ' }) {
		return fmt.Sprintf("a name of %d bytes", len(s))
	}
	return strconv.Quote(s)
}

// errNotProvided is a setting whose expression yields nothing.
var errNotProvided = errors.New("the caller's identity does not provide it")

// settingText is the text a setting is bound as.
func settingText(x any) (string, error) {
	var s string
	switch x := x.(type) {
	case nil:
		return "", errNotProvided
	case string:
		s = x
	case bool:
		s = strconv.FormatBool(x)
	case int64:
		s = strconv.FormatInt(x, 10)
	case int:
		s = strconv.Itoa(x)
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return "", fmt.Errorf("%v is not a number JSON can hold", x)
		}
		s = strconv.FormatFloat(x, 'f', -1, 64)
	default:
		b, err := json.Marshal(x)
		if err != nil {
			return "", err
		}
		s = string(b)
	}
	switch {
	case len(s) > maxSettingValue:
		return "", fmt.Errorf("the value has %d bytes, more than the %d a setting may hold", len(s), maxSettingValue)
	case strings.ContainsRune(s, 0):
		return "", errors.New("the value holds a NUL character, which a database setting cannot")
	}
	return s, nil
}

// roleStatement is SET LOCAL ROLE for c's role, quoted as an identifier;
// "" when the call assumes none. The role is one of the allow-list.
func (c *callIdentity) roleStatement() string {
	if c == nil || c.role == "" {
		return ""
	}
	return "SET LOCAL ROLE " + pgx.Identifier{c.role}.Sanitize()
}

// set sets c's settings in tx, with their names and values bound.
func (c *callIdentity) set(ctx context.Context, tx *sql.Tx) error {
	if c == nil || c.id.setSQL == "" {
		return nil
	}
	if _, err := tx.ExecContext(ctx, c.id.setSQL, c.values...); err != nil {
		return fmt.Errorf("setting the session from the caller: %w", err)
	}
	return nil
}
