// Copyright 2025 The Go MCP SDK Authors. All rights reserved.
// Use of this source code is governed by an MIT-style
// license that can be found in the LICENSE file.

package mcp

// NotifyToolListChanged tells every client that the server's tools changed,
// as AddTool and RemoveTools do: notifications/tools/list_changed to
// sessions before 2026-07-28, and through subscriptions/listen to those
// that asked for it. It is for a server that answers tools/list itself
// (a middleware) rather than from tools added to it.
//
// mcpgen patch: not in the upstream SDK.
func (s *Server) NotifyToolListChanged() {
	s.changeAndNotify(notificationToolListChanged, func() bool { return true })
}
