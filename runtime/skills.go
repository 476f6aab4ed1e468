package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/plan"
)

// The MCP skills extension (io.modelcontextprotocol/skills, SEP-2640):
// skills/list and skills/get give a skill's entry (its SKILL.md URI,
// frontmatter and the digest and size of each file), resources/read reads
// the files (they are resources of the plan), and
// resources/directory/read lists a skill's directories. A caller sees a
// skill only when it may use everything the skill names (plan.Skill).

// skillMethods are the methods of the skills extension.
var skillMethods = []string{"skills/list", "skills/get", "resources/directory/read"}

// directoryMIME marks a directory among a directory's children.
const directoryMIME = "inode/directory"

// skillsSettings are the extension's settings: mcpgen lists directories.
func skillsSettings() map[string]any { return map[string]any{"directoryRead": true} }

type skillParams struct {
	mcp.ParamsBase
	URI    string `json:"uri,omitempty"`
	Cursor string `json:"cursor,omitempty"`
}

// wireResult is a result whose JSON is built by hand.
type wireResult struct {
	mcp.ResultBase
	v map[string]any
}

func (r *wireResult) MarshalJSON() ([]byte, error) {
	if len(r.Meta) > 0 {
		meta := map[string]any{}
		for k, v := range r.Meta {
			meta[k] = v
		}
		r.v["_meta"] = meta
	}
	return json.Marshal(r.v)
}

// registerSkills adds the methods of the skills extension to srv; at
// gives the config a request runs on.
func registerSkills(srv *mcp.Server, at func(context.Context) *Server) {
	for _, m := range []struct {
		name string
		h    func(*Server, context.Context, *skillParams) (map[string]any, error)
	}{
		{"skills/list", (*Server).listSkills},
		{"skills/get", (*Server).getSkill},
		{"resources/directory/read", (*Server).readDirectory},
	} {
		h := m.h
		err := mcp.AddReceivingCustomMethod(srv, m.name, func(ctx context.Context, _ *mcp.ServerSession, p *skillParams) (*wireResult, error) {
			if p == nil {
				p = &skillParams{}
			}
			s := at(ctx)
			if len(s.plan.Skills) == 0 { // served by Live, on a config without skills
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "method not found: the server has no skills"}
			}
			v, err := h(s, ctx, p)
			if err != nil {
				return nil, err
			}
			v["resultType"] = "complete"
			return &wireResult{v: v}, nil
		})
		if err != nil {
			panic(err) // only if the SDK grew a method of that name
		}
	}
}

// visibleSkills are the skills the caller on ctx may see.
func (s *Server) visibleSkills(ctx context.Context) []*plan.Skill {
	c := auth.CallerFrom(ctx)
	if c == nil {
		return s.plan.Skills
	}
	var out []*plan.Skill
	for _, k := range s.plan.Skills {
		if r := s.resourceFor(k.URI); r != nil && c.HasScopes(r.Scopes) {
			out = append(out, k)
		}
	}
	return out
}

// cacheFields are ttlMs and cacheScope of the skills' results.
func (s *Server) cacheFields(ctx context.Context, v map[string]any) map[string]any {
	var c mcp.Cacheable
	s.plan.SkillHint.Apply(&c)
	if auth.CallerFrom(ctx) != nil && s.plan.Auth != nil {
		c.CacheScope = "private"
	}
	v["ttlMs"], v["cacheScope"] = c.TTLMs, c.CacheScope
	return v
}

func (s *Server) listSkills(ctx context.Context, p *skillParams) (map[string]any, error) {
	if p.Cursor != "" { // one page: mcpgen never gives a cursor
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid cursor"}
	}
	ks := s.visibleSkills(ctx)
	list := make([]any, len(ks))
	for i, k := range ks {
		list[i] = k.Entry()
	}
	return s.cacheFields(ctx, map[string]any{"skills": list}), nil
}

func (s *Server) getSkill(ctx context.Context, p *skillParams) (map[string]any, error) {
	for _, k := range s.visibleSkills(ctx) {
		if k.URI == p.URI {
			return s.cacheFields(ctx, map[string]any{"skill": k.Entry()}), nil
		}
	}
	return nil, unknownSkill(p.URI, "skill")
}

func unknownSkill(uri, what string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("no %s at %q", what, uri),
		Data: json.RawMessage(jsonOf(map[string]any{"uri": uri}))}
}

// readDirectory lists the direct children of a directory of a skill:
// skill://NAME or one below it, given without a trailing slash.
func (s *Server) readDirectory(ctx context.Context, p *skillParams) (map[string]any, error) {
	if p.Cursor != "" {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid cursor"}
	}
	for _, k := range s.visibleSkills(ctx) {
		root := "skill://" + k.Name
		if p.URI != root && !strings.HasPrefix(p.URI, root+"/") {
			continue
		}
		dir := strings.TrimPrefix(strings.TrimPrefix(p.URI, root), "/")
		children := map[string]map[string]any{}
		for _, f := range k.Files {
			rel := strings.TrimPrefix(f.URI, root+"/")
			if dir != "" {
				if !strings.HasPrefix(rel, dir+"/") {
					continue
				}
				rel = strings.TrimPrefix(rel, dir+"/")
			}
			name, _, sub := strings.Cut(rel, "/")
			uri := p.URI + "/" + name
			if sub {
				children[uri] = map[string]any{"uri": uri, "name": name, "mimeType": directoryMIME}
			} else {
				children[uri] = map[string]any{"uri": uri, "name": name, "mimeType": f.MIME, "size": f.Size}
			}
		}
		if len(children) == 0 { // a file, or nothing
			break
		}
		list := make([]any, 0, len(children))
		for _, uri := range slices.Sorted(maps.Keys(children)) {
			list = append(list, children[uri])
		}
		return map[string]any{"resources": list}, nil
	}
	return nil, unknownSkill(p.URI, "directory")
}
