package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/cmd/mcpgen/importer/openapi"
)

// pickOperations lists ops on w and reads the user's choice from r: numbers
// and ranges (1-3,7), tags, operationId globs and path globs (starting
// with /), separated by commas or spaces; an empty answer takes them all.
func pickOperations(ops []*openapi.Operation, r io.Reader, w io.Writer) ([]*openapi.Operation, error) {
	for i, o := range ops {
		fmt.Fprintf(w, "%4d  %-7s %-40s %s", i+1, o.Method, o.Path, o.ID)
		if len(o.Tags) > 0 {
			fmt.Fprintf(w, "  [%s]", strings.Join(o.Tags, ", "))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprint(w, "Operations to import (numbers, ranges 1-3, tags, operationId or /path globs; empty for all): ")
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	fmt.Fprintln(w)
	words := strings.FieldsFunc(line, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r' })
	if len(words) == 0 {
		return ops, nil
	}
	chosen := make([]bool, len(ops))
	for _, word := range words {
		if err := choose(ops, word, chosen); err != nil {
			return nil, err
		}
	}
	var picked []*openapi.Operation
	for i, o := range ops {
		if chosen[i] {
			picked = append(picked, o)
		}
	}
	return picked, nil
}

// choose marks the operations one word of the answer selects.
func choose(ops []*openapi.Operation, word string, chosen []bool) error {
	lo, hi, isRange := strings.Cut(word, "-")
	if a, err := strconv.Atoi(lo); err == nil {
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil {
				return fmt.Errorf("%q: not a range of numbers", word)
			}
		}
		if a < 1 || b > len(ops) || a > b {
			return fmt.Errorf("%q: choose between 1 and %d", word, len(ops))
		}
		for i := a; i <= b; i++ {
			chosen[i-1] = true
		}
		return nil
	}
	f := openapi.Filter{Tags: []string{word}}
	if strings.HasPrefix(word, "/") {
		f = openapi.Filter{Paths: []string{word}}
	}
	var any bool
	for _, filter := range []openapi.Filter{f, {Operations: []string{word}}} {
		sel, err := filter.Select(ops)
		if err != nil {
			return err
		}
		for _, s := range sel {
			for i, o := range ops {
				if o == s {
					chosen[i], any = true, true
				}
			}
		}
	}
	if !any {
		return fmt.Errorf("%q matches no operation", word)
	}
	return nil
}
