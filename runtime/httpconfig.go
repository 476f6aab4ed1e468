package runtime

import (
	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/spec"
)

// HTTP returns the config's `server.http` section, nil when it has none.
// Package transport reads its listen address and options from it.
func (s *Server) HTTP() *spec.HTTP { return s.plan.HTTP }

// Auth returns the guard that authenticates HTTP requests
// (`server.http.auth`), nil when the config has none.
func (s *Server) Auth() *auth.Guard { return s.plan.Auth }

// TLS returns the certificate files of `server.http.tls`, resolved against
// the config file's directory; nil when the config has none.
func (s *Server) TLS() *spec.TLS { return s.plan.TLS }

// ServesHTTP reports whether the config asks to be served over HTTP (it
// sets server.http.addr), so that `mcpgen serve` without --http serves HTTP
// rather than stdio.
func (s *Server) ServesHTTP() bool { return s.plan.HTTP != nil && s.plan.HTTP.Addr != "" }

// Stdio returns the config's `server.stdio` section, nil when it has none.
// Package transport reads its options from it.
func (s *Server) Stdio() *spec.Stdio { return s.plan.Stdio }
