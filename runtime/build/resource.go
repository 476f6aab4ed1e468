package build

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"mime"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/expr-lang/expr/types"
	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/content"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/load/regfile"
	"github.com/mcpgen/mcpgen/runtime/plan"
	"github.com/mcpgen/mcpgen/runtime/watch"
	"github.com/mcpgen/mcpgen/spec"
	"github.com/mcpgen/mcpgen/spec/rule"
	"github.com/mcpgen/mcpgen/templates"
	"github.com/yosida95/uritemplate/v3"
)

func (b *builder) resources(f *load.File) {
	b.plan.Resources = append(b.plan.Resources, entries(b, f, "resources", "empty resource", f.Config.Resources,
		func(_ int, path string, r *spec.Resource) *plan.Resource { return b.resource(f, path, r) })...)
	b.plan.Templates = append(b.plan.Templates, entries(b, f, "resource_templates", "empty resource template",
		f.Config.ResourceTemplates,
		func(_ int, path string, r *spec.ResourceTemplate) *plan.Resource {
			return b.resourceTemplate(f, path, r)
		})...)
}

// resource builds a resource with a fixed URI; nil after reporting.
func (b *builder) resource(f *load.File, path string, r *spec.Resource) *plan.Resource {
	before := b.ds.Errors()
	if _, err := url.Parse(r.URI); err != nil || !strings.Contains(r.URI, ":") {
		b.diag(f, load.Error, path+".uri", fmt.Sprintf("invalid URI %q", r.URI), "a URI has a scheme, e.g. docs://handbook")
	} else {
		b.unique(f, "resource", r.URI, path+".uri")
	}
	res := &plan.Resource{Def: &mcp.Resource{URI: r.URI, Name: r.Name, Title: r.Title,
		Description: r.Description, MIMEType: r.MimeType, Icons: b.icons(f, path+".icons", r.Icons)}, Scopes: r.Scopes, CacheCfg: r.CacheHint}
	b.scopeList(f, path+".scopes", r.Scopes)
	b.source(f, path, res, &r.Source, types.Map{}, r.MimeType, r.Steps)
	res.Def.MIMEType = res.MimeType
	if r.App != nil {
		b.appResource(f, path, r, res)
	}
	if b.ds.Errors() > before {
		return nil
	}
	return res
}

// resourceTemplate builds a resource template; nil after reporting.
func (b *builder) resourceTemplate(f *load.File, path string, r *spec.ResourceTemplate) *plan.Resource {
	before := b.ds.Errors()
	ut, err := uritemplate.New(r.URITemplate)
	if err != nil || !strings.Contains(r.URITemplate, ":") {
		b.diag(f, load.Error, path+".uri_template", fmt.Sprintf("invalid URI template %q", r.URITemplate),
			"an RFC 6570 template with a scheme, e.g. docs://pages/{name}")
		return nil
	}
	b.unique(f, "resource template", r.URITemplate, path+".uri_template")
	res := &plan.Resource{Tmpl: &mcp.ResourceTemplate{URITemplate: r.URITemplate, Name: r.Name, Title: r.Title,
		Description: r.Description, MIMEType: r.MimeType, Icons: b.icons(f, path+".icons", r.Icons)}, Match: ut, Vars: ut.Varnames(), Complete: r.Complete,
		Scopes: r.Scopes, CacheCfg: r.CacheHint}
	b.scopeList(f, path+".scopes", r.Scopes)
	for v := range r.Complete {
		if !slices.Contains(res.Vars, v) {
			b.diag(f, load.Error, path+".complete."+v, fmt.Sprintf("%q is not a variable of the template", v), "")
		}
	}
	b.templateCompleters(f, path, res, r)
	argsType := types.Map{}
	for _, v := range res.Vars {
		argsType[v] = types.String
	}
	b.source(f, path, res, &r.Source, argsType, r.MimeType, r.Steps)
	res.Tmpl.MIMEType = res.MimeType
	if b.ds.Errors() > before {
		return nil
	}
	return res
}

// templateCompleters builds the complete_from handlers of a template's variables.
func (b *builder) templateCompleters(f *load.File, path string, res *plan.Resource, r *spec.ResourceTemplate) {
	for _, v := range slices.Sorted(maps.Keys(r.CompleteFrom)) {
		p := path + ".complete_from." + v
		switch {
		case !slices.Contains(res.Vars, v):
			b.diag(f, load.Error, p, fmt.Sprintf("%q is not a variable of the template", v), "")
		case len(r.Complete[v]) > 0:
			g := rule.Group{Names: []string{"complete." + v, "complete_from." + v}}
			b.diag(f, load.Error, p, g.Message(), rule.Found(g.Names))
		default:
			if h := b.completer(f, p, r.CompleteFrom[v]); h != nil {
				if res.Completers == nil {
					res.Completers = map[string]handlers.Handler{}
				}
				res.Completers[v] = h
			}
		}
	}
}

// contents compiles the text or the base64 blob of a resource's contents
// (the loader checked that at most one is given). The MIME type is mimeType when
// given, else text/plain for text and application/octet-stream for a blob.
func (b *builder) contents(f *load.File, path string, text *string, blob, mimeType string,
	roots map[string][]string) plan.Contents {
	c := plan.Contents{MimeType: mimeType}
	if text != nil {
		c.Text = b.template(f, path+".text", *text, roots)
		c.MimeType = cmp.Or(c.MimeType, "text/plain")
	}
	if blob != "" {
		c.Blob, _ = b.decodeBase64(f, path+".blob", blob)
		c.MimeType = cmp.Or(c.MimeType, "application/octet-stream")
	}
	return c
}

// source compiles where a resource's contents come from.
func (b *builder) source(f *load.File, path string, res *plan.Resource, src *spec.Source, args types.Map, mimeType string, steps []*spec.Step) {
	roots := map[string][]string{"args": argNames(args)}
	var extra types.Map
	if len(steps) > 0 {
		res.Steps = b.askingSteps(f, path, "resource", steps, roots)
		extra = stepsType(roots["steps"])
	}
	res.Contents = b.contents(f, path, src.Text, src.Blob, mimeType, roots)
	if src.File != "" {
		res.File = b.template(f, path+".file", src.File, roots)
		res.Root = b.path(f, src.Root)
		rootOK := false
		if st, err := os.Stat(res.Root); err != nil || !st.IsDir() {
			b.errorf(f, path+".root", "root %q is not a directory", src.Root)
		} else {
			rootOK = !b.kernelPath(f, path+".root", res.Root)
		}
		if lit, ok := constOf(res.File); ok {
			if res.MimeType == "" {
				res.MimeType = mime.TypeByExtension(filepath.Ext(lit))
			}
			if rootOK {
				b.fileInRoot(f, path+".file", res.Root, lit)
			}
		}
	} else if src.Root != "" {
		b.errorf(f, path+".root", "root is for file-backed resources")
	}
	if src.TemplateFile != "" {
		res.Text = b.templateFile(f, path+".template_file", src.TemplateFile, roots)
		if res.MimeType == "" {
			res.MimeType, _ = content.FileType("", src.TemplateFile, nil)
		}
	}
	if src.Handler != nil {
		res.Handler = b.buildHandler(f, path+".handler", src.Handler, args, nil, extra)
	}
}

// fileInRoot checks a resource's fixed file by the rule serving reads it
// with (os.Root: no "..", no absolute path, no symbolic link leading out of
// root), so that validate refuses what serve would, and reports the file
// to Options.Referenced (pack bundles it).
func (b *builder) fileInRoot(f *load.File, path, dir, name string) {
	b.fileIn(f, path, "resource", dir, name, "the file is read when a client reads the resource: ")
}

// fileIn is fileInRoot for the root of what (a resource, a skill); when
// says when the file is read, for the hint.
func (b *builder) fileIn(f *load.File, path, what, dir, name, when string) {
	if !filepath.IsLocal(name) {
		b.errorf(f, path, "%q is outside the %s's root %s", name, what, dir)
		return
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		b.errorf(f, path, "%s", load.ReadError(err))
		return
	}
	defer root.Close()
	st, err := root.Stat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		b.diag(f, load.Error, path, fmt.Sprintf("%q does not exist in %s", name, dir),
			when+"create it, or fix the name (or root)")
	case err != nil:
		b.diag(f, load.Error, path, fmt.Sprintf("%q leads outside the %s's root %s", name, what, dir),
			"a symbolic link to a file outside root is refused; copy the file in, or set root to where it is")
	case !st.Mode().IsRegular():
		b.errorf(f, path, "%q is not a regular file", name)
	case b.opts.Referenced != nil:
		b.opts.Referenced(filepath.Join(dir, name))
	}
}

func constOf(t *templates.Template) (string, bool) {
	if t == nil {
		return "", false
	}
	return t.Constant()
}

// templateFile reads a template from a file, relative to the config, and
// parses it; errors inside it are reported at the field naming the file.
func (b *builder) templateFile(f *load.File, path, name string, roots map[string][]string) *templates.Template {
	p := b.path(f, name)
	if b.kernelPath(f, path, p) {
		return nil
	}
	data, err := regfile.Read(p, plan.MaxResourceSize)
	if err != nil {
		b.errorf(f, path, "%s", load.ReadError(err))
		return nil
	}
	t, terr := b.tmpls.Parse(path, string(data), roots)
	if terr != nil {
		line := ""
		if terr.Line > 0 {
			line = fmt.Sprintf(":%d", terr.Line)
			if terr.Col > 0 {
				line += fmt.Sprintf(":%d", terr.Col)
			}
		}
		b.diag(f, load.Error, path, fmt.Sprintf("%s%s: %s", name, line, terr.Msg), terr.Hint)
		return nil
	}
	return t
}

// watchFiles lists the fixed files of s's resources, to be watched.
func watchFiles(s *plan.Plan) []watch.File {
	var out []watch.File
	for _, r := range s.Resources {
		if name, ok := constOf(r.File); ok && r.File != nil {
			out = append(out, watch.File{URI: r.Def.URI, Root: r.Root, Name: name})
		}
	}
	return out
}
