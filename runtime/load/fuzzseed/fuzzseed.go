// Package fuzzseed seeds the fuzz targets that read mcpgen configs.
//
// Every input that finds new code is minimized by the fuzzer, and
// minimizing costs time quadratic in the input's size: whole example files
// (up to 10KB) made every such input use the full minimization budget (a
// minute) at 0 executions per second. So configs larger than MaxSeed are
// seeded split, one small config per entry.
package fuzzseed

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"gopkg.in/yaml.v3"
)

// MaxSeed is the size past which a config is split.
const MaxSeed = 512

// AddFiles adds every file matching the patterns with Add.
func AddFiles(f *testing.F, patterns ...string) {
	f.Helper()
	for _, p := range patterns {
		paths, _ := filepath.Glob(filepath.FromSlash(p))
		for _, path := range paths {
			data, err := os.ReadFile(path)
			if err != nil {
				f.Fatal(err)
			}
			Add(f, data)
		}
	}
}

// Add adds data whole when it is small, else one small config per entry of
// its top-level lists and maps (each tool, resource, prompt, backend...),
// beside `version: 1`.
func Add(f *testing.F, data []byte) {
	seeds := [][]byte{data}
	if len(data) > MaxSeed {
		if split := Split(data); len(split) > 0 {
			seeds = split
		}
	}
	for _, s := range seeds {
		f.Add(s)
	}
}

// Split returns a config of one entry for each entry of data's top-level
// lists and maps, and one for each of its other top-level keys.
func Split(data []byte) [][]byte {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	root := doc.Content[0]
	var seeds [][]byte
	add := func(key, value *yaml.Node) {
		m := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
			{Kind: yaml.ScalarNode, Value: "version"}, {Kind: yaml.ScalarNode, Value: "1"}, key, value}}
		if out, err := yaml.Marshal(m); err == nil {
			seeds = append(seeds, out)
		}
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		key, value := root.Content[i], root.Content[i+1]
		switch {
		case key.Value == "version":
		case value.Kind == yaml.SequenceNode:
			for _, item := range value.Content {
				add(key, &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{item}})
			}
		case value.Kind == yaml.MappingNode && key.Value != "server":
			for j := 0; j+1 < len(value.Content); j += 2 {
				add(key, &yaml.Node{Kind: yaml.MappingNode, Content: value.Content[j : j+2]})
			}
		default:
			add(key, value)
		}
	}
	return seeds
}

// Lines splits data into lines the way YAML counts them: a line ends at
// "\r\n", "\r", "\n" or one of the Unicode breaks (NEL, LS, PS).
func Lines(data []byte) [][]byte {
	data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	for _, br := range []string{"\r", "\u0085", "\u2028", "\u2029"} {
		data = bytes.ReplaceAll(data, []byte(br), []byte("\n"))
	}
	return bytes.Split(data, []byte("\n"))
}
