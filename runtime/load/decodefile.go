package load

import (
	"bytes"
	"reflect"

	"gopkg.in/yaml.v3"
)

// Decode decodes a YAML file that is not a config, such as the tests of a
// config, into v (a pointer to a struct) as strictly as a config: unknown
// and duplicate keys (with a did-you-mean), wrong types, missing required
// fields and the rules of spec/rule are positioned diagnostics. Scalars
// are taken as written: ${VAR} is not expanded. It returns the document's
// root mapping, for positions, or nil when the file does not parse.
func Decode(path string, data []byte, v any) (*yaml.Node, Diagnostics) {
	var ds Diagnostics
	d := Reporter{file: path, list: &ds, src: data}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if !decodeDoc(dec, &doc, d, "the file is empty") {
		return nil, ds
	}
	root := Resolve(&doc)
	if root == nil || root.Kind != yaml.MappingNode || expandedSize(root, map[*yaml.Node]int{}) > maxValues {
		ds = append(ds, Diagnostic{File: path, Line: max(doc.Line, 1), Message: "expected a mapping", Severity: Error})
		return nil, ds
	}
	dc := &decoder{d: d, raw: true}
	dc.decode(root, reflect.ValueOf(v).Elem(), rootPlace(""))
	return root, ds.Sort()
}

// DecodeNode decodes n, a node of the file at path whose contents are
// src, into v as strictly as Decode; path names n in diagnostics.
func DecodeNode(file string, src []byte, n *yaml.Node, v any, path string) Diagnostics {
	var ds Diagnostics
	dc := &decoder{d: Reporter{file: file, list: &ds, src: src}, raw: true}
	dc.decode(n, reflect.ValueOf(v).Elem(), rootPlace(path))
	return ds.Sort()
}

// NewReporter returns a Reporter that appends diagnostics about the file
// at path, whose contents are src, to list.
func NewReporter(path string, src []byte, list *Diagnostics) Reporter {
	return Reporter{file: path, list: list, src: src}
}
