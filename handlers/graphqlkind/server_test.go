package graphqlkind_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/validator"
)

// testToken is the bearer token the directory server accepts.
const testToken = "tok-5f0c1d2e3b4a"

// directory is a GraphQL server over the example's schema.graphql on
// 127.0.0.1: gqlparser validates each request against the schema, and the
// few lines of execute answer it from a list of users.
type directory struct {
	*httptest.Server
	schema *ast.Schema
	mu     sync.Mutex
	users  []map[string]any
	bodies []string // requests received at /graphql
}

// newDirectory starts the server: /graphql wants the bearer token, /down
// answers 502 with HTML, as a proxy in front of a dead server does.
func newDirectory(t testing.TB) *directory {
	t.Helper()
	sdl, err := os.ReadFile(example + "schema.graphql")
	if err != nil {
		t.Fatal(err)
	}
	d := &directory{users: []map[string]any{
		{"id": "1", "name": "Ann", "role": "ADMIN", "email": "ann@example.com"},
		{"id": "2", "name": "Bob", "role": "MEMBER", "email": nil},
	}}
	d.schema = gqlparser.MustLoadSchema(&ast.Source{Name: "schema.graphql", Input: string(sdl)})
	mux := http.NewServeMux()
	mux.HandleFunc("/graphql", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Header.Get("Authorization") != "Bearer "+testToken {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"errors":[{"message":"invalid token","extensions":{"code":"UNAUTHENTICATED"}}]}`))
			return
		}
		body, _ := readAll(r)
		d.mu.Lock()
		d.bodies = append(d.bodies, body)
		d.mu.Unlock()
		_ = json.NewEncoder(w).Encode(d.serve(r, body))
	})
	mux.HandleFunc("/down", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = w.Write([]byte("<html><body><h1>502 Bad Gateway</h1></body></html>"))
	})
	d.Server = httptest.NewServer(mux)
	t.Cleanup(d.Close)
	return d
}

// gqlError is one entry of a response's errors.
type gqlError struct {
	Message string `json:"message"`
	Path    []any  `json:"path,omitempty"`
}

// response is a GraphQL response; Data is left out when the request was
// refused before it ran.
type response struct {
	Data   any        `json:"data,omitempty"`
	Errors []gqlError `json:"errors,omitempty"`
}

// serve validates the request body against the schema and executes it.
func (d *directory) serve(r *http.Request, body string) response {
	var req struct {
		Query         string         `json:"query"`
		OperationName string         `json:"operationName"`
		Variables     map[string]any `json:"variables"`
	}
	if err := json.Unmarshal([]byte(body), &req); err != nil {
		return response{Errors: []gqlError{{Message: err.Error()}}}
	}
	doc, errs := gqlparser.LoadQuery(d.schema, req.Query)
	if len(errs) > 0 {
		return response{Errors: []gqlError{{Message: errs.Error()}}}
	}
	op := doc.Operations.ForName(req.OperationName)
	if op == nil {
		return response{Errors: []gqlError{{Message: fmt.Sprintf("no operation %q", req.OperationName)}}}
	}
	vars, err := validator.VariableValues(d.schema, op, req.Variables)
	if err != nil {
		return response{Errors: []gqlError{{Message: err.Error()}}}
	}
	return d.execute(r, op, vars)
}

// execute resolves the root fields of op; a failed field is null and
// named in the errors, and a failed non-null field nulls the whole data.
func (d *directory) execute(r *http.Request, op *ast.OperationDefinition, vars map[string]any) response {
	var resp response
	data := object{}
	for _, f := range fields(op.SelectionSet) {
		v, err := d.resolve(r, f.Name, f.ArgumentMap(vars))
		if err != nil {
			resp.Errors = append(resp.Errors, gqlError{Message: err.Error(), Path: []any{f.Alias}})
			if f.Definition.Type.NonNull {
				return response{Data: json.RawMessage("null"), Errors: resp.Errors}
			}
		}
		data = append(data, member{f.Alias, project(v, f.SelectionSet)})
	}
	resp.Data = data
	return resp
}

// resolve answers one root field of the schema.
func (d *directory) resolve(r *http.Request, field string, args map[string]any) (any, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	switch field {
	case "user":
		for _, u := range d.users {
			if u["id"] == args["id"] {
				return u, nil
			}
		}
		return nil, fmt.Errorf("no user %v", args["id"])
	case "users":
		var out []any
		for _, u := range d.users {
			if (args["role"] == nil || args["role"] == u["role"]) && float64(len(out)) < toFloat(args["limit"]) {
				out = append(out, u)
			}
		}
		return out, nil
	case "createUser":
		in := args["input"].(map[string]any)
		role := in["role"]
		if role == nil {
			role = d.schema.Types["NewUser"].Fields.ForName("role").DefaultValue.Raw
		}
		u := map[string]any{"id": fmt.Sprint(len(d.users) + 1), "name": in["name"], "role": role, "email": nil}
		d.users = append(d.users, u)
		return u, nil
	case "broken":
		return nil, errors.New("broken on purpose")
	case "fatal":
		return nil, errors.New("fatal on purpose")
	case "whoami":
		return r.Header.Get("Authorization"), nil
	}
	return nil, fmt.Errorf("no resolver for %s", field)
}

// toFloat reads a number of the variables (JSON) or of the document (int64).
func toFloat(v any) float64 {
	switch v := v.(type) {
	case float64:
		return v
	case int64:
		return float64(v)
	}
	return 0
}

// project keeps of v (a user, a list of them or a scalar) the fields sel asks for.
func project(v any, sel ast.SelectionSet) any {
	switch v := v.(type) {
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = project(e, sel)
		}
		return out
	case map[string]any:
		out := object{}
		for _, f := range fields(sel) {
			out = append(out, member{f.Alias, project(v[f.Name], f.SelectionSet)})
		}
		return out
	}
	return v
}

// fields lists the fields of sel in order, with those of its fragments.
func fields(sel ast.SelectionSet) []*ast.Field {
	var out []*ast.Field
	for _, s := range sel {
		switch s := s.(type) {
		case *ast.Field:
			out = append(out, s)
		case *ast.FragmentSpread:
			out = append(out, fields(s.Definition.SelectionSet)...)
		case *ast.InlineFragment:
			out = append(out, fields(s.SelectionSet)...)
		}
	}
	return out
}

// object is a JSON object that keeps its members in the order the query
// asked for them, as a GraphQL server answers.
type object []member

type member struct {
	name  string
	value any
}

// MarshalJSON writes o's members in order.
func (o object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.name)
		v, err := json.Marshal(m.value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// lastBody is the last request body /graphql received.
func (d *directory) lastBody(t testing.TB) string {
	t.Helper()
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.bodies) == 0 {
		t.Fatal("the server received no request")
	}
	return d.bodies[len(d.bodies)-1]
}

// introspection is the server's schema as an introspection result:
// testdata/schema.json holds what a GraphQL server (graph-gophers/graphql-go)
// answered for the example's schema.graphql; TestIntrospectionMatchesSDL
// keeps the two in step.
func (d *directory) introspection(t testing.TB) string {
	t.Helper()
	data, err := os.ReadFile("testdata/schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
