package gosdktest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// An apiSymbol is an exported name the patch adds to the SDK: what a
// program outside the SDK writes to use it (ref, a Go expression or
// declaration inside a function), or, for a method of an unexported type,
// which no program outside can name, the canary that covers it (tied).
type apiSymbol struct {
	name  string // package-relative: "mcp.Server.NotifyToolListChanged"
	ref   string
	tied  string
	hunks string // the hunks to drop once upstream has it
}

// patchAPI is every exported name the patch adds (TestPatchAPIInCanaryTable
// keeps it whole). Upstream lacks each one; TestUpstreamStillLacksPatchAPI
// fails when it has one.
var patchAPI = []apiSymbol{
	{name: "auth.ContextWithTokenInfo", ref: "_ = auth.ContextWithTokenInfo", hunks: "auth/auth.go: ContextWithTokenInfo"},

	{name: "mcp.TaskParams", ref: "var _ mcp.TaskParams", hunks: "mcp/protocol.go: TaskParams, CallToolParams(Raw).Task"},
	{name: "mcp.TaskParams.TTL", ref: "_ = mcp.TaskParams{}.TTL", hunks: "mcp/protocol.go: TaskParams"},
	{name: "mcp.CallToolParams.Task", ref: "_ = mcp.CallToolParams{}.Task", hunks: "mcp/protocol.go: CallToolParams.Task"},
	{name: "mcp.CallToolParamsRaw.Task", ref: "_ = mcp.CallToolParamsRaw{}.Task", hunks: "mcp/protocol.go: CallToolParamsRaw.Task"},
	{name: "mcp.ToolExecution", ref: "var _ mcp.ToolExecution", hunks: "mcp/protocol.go: ToolExecution, Tool.Execution"},
	{name: "mcp.ToolExecution.TaskSupport", ref: "_ = mcp.ToolExecution{}.TaskSupport", hunks: "mcp/protocol.go: ToolExecution"},
	{name: "mcp.Tool.Execution", ref: "_ = mcp.Tool{}.Execution", hunks: "mcp/protocol.go: Tool.Execution"},
	{name: "mcp.ServerCapabilities.Tasks", ref: "_ = mcp.ServerCapabilities{}.Tasks", hunks: "mcp/protocol.go: ServerCapabilities.Tasks and its clone"},

	{name: "mcp.ServerOptions.HeaderTool", ref: "_ = mcp.ServerOptions{}.HeaderTool", hunks: "mcp/server.go: HeaderTool, headerTool; mcp/streamable.go: connectStreamable's toolLookup"},
	{name: "mcp.Server.NotifyToolListChanged", ref: "_ = (*mcp.Server).NotifyToolListChanged", hunks: "mcp/server.go: NotifyToolListChanged"},
	{name: "mcp.ServerSession.SendNotification", ref: "_ = (*mcp.ServerSession).SendNotification", hunks: "mcp/server.go: SendNotification"},

	{name: "jsonrpc2.CompactMarshaler", ref: "var _ jsonrpc2.CompactMarshaler", hunks: "internal/jsonrpc2/messages.go: CompactMarshaler, marshalToRaw"},
	{name: "jsonrpc2.CompactMarshaler.MarshalCompact", ref: "_ = jsonrpc2.CompactMarshaler.MarshalCompact", hunks: "internal/jsonrpc2/messages.go: CompactMarshaler"},
	{name: "json.Marshal", ref: "_ = json.Marshal", hunks: "internal/json/json.go: Marshal; mcp/protocol.go: marshalText's structured content"},
	{name: "json.IsCompact", ref: "_ = json.IsCompact", hunks: "internal/json/json.go: IsCompact; internal/jsonrpc2/messages.go: EncodeMessage's one pass"},
	{name: "mcp.CallToolResult.MarshalCompact", ref: "_ = (*mcp.CallToolResult).MarshalCompact", hunks: "mcp/protocol.go: CallToolResult.MarshalCompact"},

	{name: "mcp.StreamableHTTPOptions.JSONReplyWait", ref: "_ = mcp.StreamableHTTPOptions{}.JSONReplyWait", hunks: "mcp/streamable.go: JSONReplyWait, jsonReplyWait, undecided streams"},
	{name: "mcp.StreamableHTTPOptions.SessionStore", ref: "_ = mcp.StreamableHTTPOptions{}.SessionStore", hunks: "mcp/streamable.go: SessionStore, adoptSession, startSession, sessionUpdated"},
	{name: "mcp.SessionStore", ref: "var _ mcp.SessionStore", hunks: "mcp/streamable.go: SessionStore"},
	{name: "mcp.SessionStore.Load", ref: "_ = mcp.SessionStore.Load", hunks: "mcp/streamable.go: SessionStore"},
	{name: "mcp.SessionStore.Store", ref: "_ = mcp.SessionStore.Store", hunks: "mcp/streamable.go: SessionStore"},
	{name: "mcp.SessionStore.Delete", ref: "_ = mcp.SessionStore.Delete", hunks: "mcp/streamable.go: SessionStore"},

	{name: "jsonrpc2.Connection.Deliver", ref: "_ = (*jsonrpc2.Connection).Deliver", hunks: "internal/jsonrpc2/conn.go: Deliver, retire, handleDelivered; mcp/transport.go: deliverer; mcp/streamable.go: setDeliver, publish"},
	{name: "jsonrpc2.Connection.CancelByPeer", ref: "_ = (*jsonrpc2.Connection).CancelByPeer", hunks: "internal/jsonrpc2/conn.go: CancelByPeer, cancelWith; mcp/transport.go: CancelByPeer"},
	{name: "jsonrpc2.ErrCancelledByPeer", ref: "_ = jsonrpc2.ErrCancelledByPeer", hunks: "internal/jsonrpc2/conn.go: ErrCancelledByPeer, processResult's Retire"},
	{name: "jsonrpc2.Retirer", ref: "var _ jsonrpc2.Retirer", hunks: "internal/jsonrpc2/conn.go: Retirer; the Retire methods of mcp's connections"},
	{name: "jsonrpc2.Retirer.Retire", ref: "_ = jsonrpc2.Retirer.Retire", hunks: "internal/jsonrpc2/conn.go: Retirer"},

	{name: "mcp.ioConn.Retire", tied: "TestUpstreamStillAnswersCancelledRequests"},
	{name: "mcp.sseServerConn.Retire", tied: "TestUpstreamStillAnswersCancelledRequests"},
	{name: "mcp.streamableServerConn.Retire", tied: "TestUpstreamStillAnswersCancelledRequests"},
}

// knownUpstream is a name upstream has: the canary program must compile it.
const knownUpstream = "_ = mcp.NewServer"

// apiProgram is a program that uses each symbol of patchAPI with a ref, on
// a line of its own in a function of its own, and knownUpstream. It
// returns the program and the line of each ref, knownUpstream's last.
func apiProgram() (string, []int) {
	var b strings.Builder
	b.WriteString("package main\n\nimport (\n\t\"github.com/modelcontextprotocol/go-sdk/auth\"\n" +
		"\t\"github.com/modelcontextprotocol/go-sdk/internal/json\"\n" +
		"\t\"github.com/modelcontextprotocol/go-sdk/internal/jsonrpc2\"\n\t\"github.com/modelcontextprotocol/go-sdk/mcp\"\n)\n\n" +
		"var _ = auth.TokenInfo{}\nvar _ = json.Unmarshal\nvar _ jsonrpc2.ID\nvar _ = mcp.Implementation{}\n\nfunc main() {}\n")
	line := strings.Count(b.String(), "\n") + 1
	var lines []int
	fn := func(i int, ref string) {
		fmt.Fprintf(&b, "\nfunc use%d() {\n\t%s\n}\n", i, ref)
		lines = append(lines, line+2)
		line += 4
	}
	for i, s := range patchAPI {
		if s.ref != "" {
			fn(i, s.ref)
		}
	}
	fn(len(patchAPI), knownUpstream)
	return b.String(), lines
}

var compileError = regexp.MustCompile(`(?m)^\./main\.go:(\d+):\d+: (.*)$`)

// errorsByLine reads the compiler's errors in main.go by line.
func errorsByLine(out string) (map[int][]string, int) {
	byLine := map[int][]string{}
	n := 0
	for _, m := range compileError.FindAllStringSubmatch(out, -1) {
		l, _ := strconv.Atoi(m[1])
		byLine[l] = append(byLine[l], m[2])
		n++
	}
	return byLine, n
}

// TestUpstreamStillLacksPatchAPI fails when upstream has a name the patch
// adds: then drop the hunks the failure names, and use upstream's (check
// that it means the same). The program that uses every name compiles
// against upstream with the patch applied, and against upstream fails with
// one "undefined" per name and nothing else.
func TestUpstreamStillLacksPatchAPI(t *testing.T) {
	prog, lines := apiProgram()
	if out := compileErrors(t, patchedUpstream(t), prog); out != "" {
		t.Fatalf("the canary program does not compile against upstream with the patch: fix its refs\n%s\n%s", out, prog)
	}
	out := compileErrors(t, "", prog)
	byLine, n := errorsByLine(out)
	if n == 0 && out != "" {
		t.Fatalf("building the canary program against upstream failed before compiling it:\n%s", out)
	}
	known := lines[len(lines)-1]
	if errs := byLine[known]; len(errs) > 0 {
		t.Errorf("%s, which upstream has, does not compile: %v", knownUpstream, errs)
	}
	refs := 0
	i := 0
	for _, s := range patchAPI {
		if s.ref == "" {
			continue
		}
		refs++
		errs := byLine[lines[i]]
		i++
		switch {
		case len(errs) == 0:
			t.Errorf("upstream %s has %s: drop the patch's %s, and use upstream's", sdkModule, s.name, s.hunks)
		case len(errs) > 1 || !strings.Contains(errs[0], "undefined"):
			t.Errorf("%s: want one undefined, got %q", s.name, errs)
		}
	}
	if n != refs {
		t.Errorf("the compiler reported %d errors for %d names the patch adds; want one each:\n%s", n, refs, out)
	}
}

// TestPatchAPIInCanaryTable fails when the patch adds an exported name
// that patchAPI lacks, or patchAPI names one the patch no longer adds: it
// compares the exported names declared in the copy's files with those in
// upstream's.
func TestPatchAPIInCanaryTable(t *testing.T) {
	up, _ := upstreamDir(t)
	added := map[string]bool{}
	for file := range readPatch(t) {
		if !strings.HasSuffix(file, ".go") {
			continue
		}
		theirs := exportedNames(t, filepath.Join(up, file))
		for name := range exportedNames(t, filepath.Join(copyDir, file)) {
			if !theirs[name] {
				added[name] = true
			}
		}
	}
	table := map[string]bool{}
	for _, s := range patchAPI {
		table[s.name] = true
		if !added[s.name] {
			t.Errorf("patchAPI names %s, which the patch does not add: drop it", s.name)
		}
		if (s.ref == "") == (s.tied == "") {
			t.Errorf("%s: want a ref or, for a name no program outside the SDK can use, the canary it is tied to", s.name)
		}
	}
	var missing []string
	for name := range added {
		if !table[name] {
			missing = append(missing, name)
		}
	}
	slices.Sort(missing)
	for _, name := range missing {
		t.Errorf("the patch adds %s, which patchAPI lacks: add it, so that a canary sees upstream ship it", name)
	}
}

// exportedNames reads the exported names a Go file declares: functions,
// types, variables and constants as "pkg.Name", methods as
// "pkg.Type.Method" (of unexported types too: they implement interfaces),
// fields and interface methods of exported types as "pkg.Type.Field".
func exportedNames(t *testing.T, path string) map[string]bool {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := parser.ParseFile(token.NewFileSet(), path, src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	pkg := f.Name.Name
	names := map[string]bool{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			switch {
			case !d.Name.IsExported():
			case d.Recv == nil:
				names[pkg+"."+d.Name.Name] = true
			default:
				names[pkg+"."+recvType(d.Recv.List[0].Type)+"."+d.Name.Name] = true
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				addSpecNames(names, pkg, spec)
			}
		}
	}
	return names
}

func addSpecNames(names map[string]bool, pkg string, spec ast.Spec) {
	switch s := spec.(type) {
	case *ast.ValueSpec:
		for _, n := range s.Names {
			if n.IsExported() {
				names[pkg+"."+n.Name] = true
			}
		}
	case *ast.TypeSpec:
		if !s.Name.IsExported() {
			return
		}
		names[pkg+"."+s.Name.Name] = true
		var members []*ast.Field
		switch ty := s.Type.(type) {
		case *ast.StructType:
			members = ty.Fields.List
		case *ast.InterfaceType:
			members = ty.Methods.List
		}
		for _, m := range members {
			for _, n := range m.Names {
				if n.IsExported() {
					names[pkg+"."+s.Name.Name+"."+n.Name] = true
				}
			}
		}
	}
}

// recvType is the name of a method's receiver type.
func recvType(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return recvType(e.X)
	case *ast.IndexExpr:
		return recvType(e.X)
	case *ast.IndexListExpr:
		return recvType(e.X)
	case *ast.Ident:
		return e.Name
	}
	return fmt.Sprintf("%T", e)
}
