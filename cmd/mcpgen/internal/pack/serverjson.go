package pack

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/mcpgen/mcpgen/runtime/load"
)

// ServerSchemaURL is the server.json schema mcpgen writes to.
const ServerSchemaURL = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"

// Server describes a server for the MCP registry's server.json.
type Server struct {
	// Name in reverse-DNS form, e.g. io.github.alice/weather.
	Name, Title, Description, Version string
	// MCPBURL is where the MCPB bundle at MCPBFile is downloaded from.
	MCPBURL, MCPBFile string
	// Image is an OCI image reference whose entrypoint is mcpgen and whose
	// /config holds ConfigNames.
	Image       string
	ConfigNames []string
	// Remote is the URL of a deployment serving over Streamable HTTP.
	Remote string
	// Env are the environment variables the configs read.
	Env []load.EnvVar
}

type serverJSON struct {
	Schema      string      `json:"$schema"`
	Name        string      `json:"name"`
	Title       string      `json:"title,omitempty"`
	Description string      `json:"description"`
	Version     string      `json:"version"`
	Packages    []pkg       `json:"packages,omitempty"`
	Remotes     []transport `json:"remotes,omitempty"`
}

type pkg struct {
	RegistryType string     `json:"registryType"`
	Identifier   string     `json:"identifier"`
	Version      string     `json:"version,omitempty"`
	FileSHA256   string     `json:"fileSha256,omitempty"`
	RuntimeHint  string     `json:"runtimeHint,omitempty"`
	Transport    transport  `json:"transport"`
	Arguments    []argument `json:"packageArguments,omitempty"`
	Env          []envInput `json:"environmentVariables,omitempty"`
}

type transport struct {
	Type string `json:"type"`
	URL  string `json:"url,omitempty"`
}

type argument struct {
	Type  string `json:"type"`
	Value string `json:"value"`
}

type envInput struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	IsRequired  bool   `json:"isRequired,omitempty"`
	IsSecret    bool   `json:"isSecret,omitempty"`
	Default     string `json:"default,omitempty"`
}

// WriteJSON writes server.json to w, validated against the registry's
// schema.
func (s *Server) WriteJSON(w io.Writer) error {
	doc := serverJSON{Schema: ServerSchemaURL, Name: s.Name, Title: s.Title, Version: cmp.Or(s.Version, "0.1.0"),
		Description: clip(cmp.Or(s.Description, "MCP server "+s.Name+", served by mcpgen"), 100)}
	env := envInputs(s.Env)
	if s.MCPBURL != "" {
		sum, err := fileSHA256(s.MCPBFile)
		if err != nil {
			return fmt.Errorf("the MCPB bundle's checksum: %w", err)
		}
		doc.Packages = append(doc.Packages, pkg{RegistryType: "mcpb", Identifier: s.MCPBURL, FileSHA256: sum,
			Transport: transport{Type: "stdio"}, Env: env})
	}
	if s.Image != "" {
		p := pkg{RegistryType: "oci", Identifier: s.Image, RuntimeHint: "docker", Transport: transport{Type: "stdio"},
			Arguments: []argument{{Type: "positional", Value: "serve"}}, Env: env}
		for _, c := range s.ConfigNames {
			p.Arguments = append(p.Arguments, argument{Type: "positional", Value: "/config/" + c})
		}
		doc.Packages = append(doc.Packages, p)
	}
	if s.Remote != "" {
		doc.Remotes = append(doc.Remotes, transport{Type: "streamable-http", URL: s.Remote})
	}
	if len(doc.Packages) == 0 && len(doc.Remotes) == 0 {
		return errors.New("server.json needs a package or a remote: give --mcpb-url, --image or --remote")
	}
	if err := validate(serverJSONSchema, doc); err != nil {
		return fmt.Errorf("server.json does not match the registry's schema: %w", err)
	}
	return encode(w, doc)
}

func envInputs(vars []load.EnvVar) []envInput {
	var out []envInput
	for _, v := range vars {
		out = append(out, envInput{Name: v.Name, IsRequired: !v.HasDefault, IsSecret: v.Secret, Default: v.Default,
			Description: fmt.Sprintf("${%s} in the config.", v.Name)})
	}
	return out
}

func fileSHA256(path string) (string, error) {
	if path == "" {
		return "", errors.New("give the bundle file (--mcpb FILE) with its URL")
	}
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// clip shortens s to at most n characters.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
