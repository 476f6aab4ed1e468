package eval

import (
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/types"
	"github.com/expr-lang/expr/vm"
)

// Compiled expressions are kept by their source and the exact shape of
// their environment. The tools of a config repeat the same expressions
// (`args.id`, `args.limit`) over environments of the same shape, and
// expr.Compile sets up a fresh configuration for every expression, its
// table of builtins included: in a 1,000-tool config, compiling took a
// third of `validate`. A vm.Program is immutable and safe for concurrent
// use, so one compiled for an environment serves every environment of the
// same shape.
var programs struct {
	m sync.Map // key → *vm.Program
	n atomic.Int64
}

// maxPrograms bounds the cache: configs reloaded many times with new
// expressions must not grow it without end.
const maxPrograms = 50_000

// compileShared compiles src in env, or returns the program compiled
// before for the same source in an environment of the same shape.
func compileShared(src string, env types.Map) (*vm.Program, error) {
	shape, ok := envShape(env)
	if !ok {
		return expr.Compile(src, options(env)...)
	}
	key := src + "\x00" + shape
	if p, ok := programs.m.Load(key); ok {
		return p.(*vm.Program), nil
	}
	p, err := expr.Compile(src, options(env)...)
	if err == nil && programs.n.Load() < maxPrograms {
		if _, loaded := programs.m.LoadOrStore(key, p); !loaded {
			programs.n.Add(1)
		}
	}
	return p, err
}

// envShape writes env so that two environments get the same text exactly
// when expr sees them as the same: the names, in order and quoted, and
// each type. ok is false for a type it cannot write exactly; such an
// environment is not shared.
func envShape(env types.Map) (string, bool) {
	var b strings.Builder
	ok := writeShape(&b, env)
	return b.String(), ok
}

func writeShape(b *strings.Builder, t types.Type) bool {
	if m, ok := t.(types.Map); ok {
		b.WriteByte('{')
		for _, k := range slices.Sorted(maps.Keys(m)) {
			b.WriteString(strconv.Quote(k))
			b.WriteByte(':')
			if !writeShape(b, m[k]) {
				return false
			}
			b.WriteByte(',')
		}
		b.WriteByte('}')
		return true
	}
	id, ok := typeID(t)
	if !ok {
		return false
	}
	b.WriteByte('#')
	b.WriteString(strconv.FormatInt(id, 10))
	return true
}

// typeIDs numbers the types other than maps: expr's any, nil and
// reflected types, values that are equal exactly when they are the same
// type. Any other kind of type (types.Array, whose element type cannot be
// read) keeps its environment out of the cache.
var (
	typeIDs sync.Map // types.Type → int64
	lastID  atomic.Int64
	idKinds = []reflect.Type{reflect.TypeOf(types.Any), reflect.TypeOf(types.Nil), reflect.TypeOf(types.Int)}
)

func typeID(t types.Type) (int64, bool) {
	if t == nil || !slices.Contains(idKinds, reflect.TypeOf(t)) {
		return 0, false
	}
	if id, ok := typeIDs.Load(t); ok {
		return id.(int64), true
	}
	id, _ := typeIDs.LoadOrStore(t, lastID.Add(1))
	return id.(int64), true
}

// options are the compile options of an expression over env.
func options(env types.Map) []expr.Option {
	return append([]expr.Option{expr.Env(env), expr.Optimize(true)}, functions...)
}
