package schema

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/handlers"
)

// comments loads the doc comments of spec and of every kind's
// configuration package, found under the module root, as descriptions.
func (g *generator) comments(root string) error {
	pkgs := []string{configType.PkgPath()}
	for _, k := range g.kinds {
		pkgs = append(pkgs, kindPackages(k)...)
	}
	slices.Sort(pkgs)
	for _, pkg := range slices.Compact(pkgs) {
		rel, ok := strings.CutPrefix(pkg, modulePath+"/")
		if !ok {
			continue // a kind from another module: no sources here
		}
		if err := g.addComments(root, rel); err != nil {
			return fmt.Errorf("reading the doc comments of %s: %w", pkg, err)
		}
	}
	return nil
}

// addComments reads the Go files of the package in directory rel under root.
// AddGoComments keys comments by base joined with the directory it walked,
// so the walk starts from root, expressed relative to the working directory.
func (g *generator) addComments(root, rel string) error {
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return err
	}
	up, err := filepath.Rel(absRoot, wd) // working directory, seen from root
	if err != nil || strings.HasPrefix(up, "..") {
		return fmt.Errorf("the working directory must be inside the module root %s", root)
	}
	dir, err := filepath.Rel(wd, filepath.Join(absRoot, rel))
	if err != nil {
		return err
	}
	base := path.Join(modulePath, filepath.ToSlash(up))
	return g.r.AddGoComments(base, dir)
}

// kindPackages lists the packages of a kind's configuration types.
func kindPackages(k handlers.Kind) []string {
	var pkgs []string
	add := func(v any) {
		t := reflect.TypeOf(v)
		for t != nil && t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t != nil && t.PkgPath() != "" {
			pkgs = append(pkgs, t.PkgPath())
		}
	}
	add(k.NewConfig())
	if k.NewBackend != nil {
		add(k.NewBackend())
	}
	return pkgs
}
