package graphqlkind_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"

	graphql "github.com/graph-gophers/graphql-go"
	"github.com/graph-gophers/graphql-go/relay"
)

// testToken is the bearer token the directory server accepts.
const testToken = "tok-5f0c1d2e3b4a"

// directory is a GraphQL server over the example's schema.graphql, served by a
// GraphQL server library on 127.0.0.1.
type directory struct {
	*httptest.Server
	schema *graphql.Schema
	mu     sync.Mutex
	users  []*user
	bodies []string // requests received at /graphql
}

type user struct {
	id, name, role string
	email          *string
}

func (u *user) ID() graphql.ID                { return graphql.ID(u.id) }
func (u *user) Name() string                  { return u.name }
func (u *user) Email() *string                { return u.email }
func (u *user) Role() string                  { return u.role }
func (d *directory) Broken() (*string, error) { return nil, errors.New("broken on purpose") }
func (d *directory) Fatal() (string, error)   { return "", errors.New("fatal on purpose") }

func (d *directory) Whoami(ctx context.Context) string {
	s, _ := ctx.Value(authKey{}).(string)
	return s
}

func (d *directory) User(args struct{ ID graphql.ID }) (*user, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, u := range d.users {
		if u.id == string(args.ID) {
			return u, nil
		}
	}
	return nil, fmt.Errorf("no user %s", args.ID)
}

func (d *directory) Users(args struct {
	Limit int32
	Role  *string
}) []*user {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []*user
	for _, u := range d.users {
		if (args.Role == nil || *args.Role == u.role) && int32(len(out)) < args.Limit {
			out = append(out, u)
		}
	}
	return out
}

func (d *directory) CreateUser(args struct {
	Input struct {
		Name string
		Role string // the schema gives a default
		Tags *[]string
	}
}) *user {
	d.mu.Lock()
	defer d.mu.Unlock()
	u := &user{id: fmt.Sprint(len(d.users) + 1), name: args.Input.Name, role: args.Input.Role}
	d.users = append(d.users, u)
	return u
}

type authKey struct{}

// newDirectory starts the server: /graphql wants the bearer token, /down
// answers 502 with HTML, as a proxy in front of a dead server does.
func newDirectory(t testing.TB) *directory {
	t.Helper()
	sdl, err := os.ReadFile(example + "schema.graphql")
	if err != nil {
		t.Fatal(err)
	}
	mail := "ann@example.com"
	d := &directory{users: []*user{{id: "1", name: "Ann", role: "ADMIN", email: &mail}, {id: "2", name: "Bob", role: "MEMBER"}}}
	d.schema = graphql.MustParseSchema(string(sdl), d)
	gql := &relay.Handler{Schema: d.schema}
	mux := http.NewServeMux()
	mux.HandleFunc("/graphql", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+testToken {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"errors":[{"message":"invalid token","extensions":{"code":"UNAUTHENTICATED"}}]}`))
			return
		}
		body, _ := readAll(r)
		d.mu.Lock()
		d.bodies = append(d.bodies, body)
		d.mu.Unlock()
		gql.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), authKey{}, r.Header.Get("Authorization"))))
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

// introspection is the server's schema as an introspection result.
func (d *directory) introspection(t testing.TB) string {
	t.Helper()
	data, err := d.schema.ToJSON()
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
